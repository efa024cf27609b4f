# profile(): Rprof() around an expression, as an object the other functions
# take in place of a file name.

profile <- function(expr, interval = 0.02, memory = TRUE, lines = TRUE,
                    file = NULL, gc = FALSE) {
  if (is.null(file)) file <- tempfile("stackscope-", fileext = ".out")
  file <- path.expand(file)
  utils::Rprof(file, interval = interval, memory.profiling = memory,
               line.profiling = lines, gc.profiling = gc)
  on.exit(utils::Rprof(NULL))
  force(expr)
  utils::Rprof(NULL)
  on.exit()
  structure(list(file = normalizePath(file), interval = interval,
                 memory = isTRUE(memory), lines = isTRUE(lines)),
            class = "stackscope_profile")
}

print.stackscope_profile <- function(x, n = 10L, ...) {
  cat("stackscope profile ", x$file, "\n", sep = "")
  mem <- if (x$memory) "both" else "none"
  s <- summary_rprof(x, memory = mem)
  if (!nrow(s$by.total)) {
    cat("no samples: the expression ran for less than one interval (",
        x$interval, " s); try a smaller interval\n", sep = "")
    return(invisible(x))
  }
  cat(sprintf("%.3f s sampled, every %g s%s\n", s$sampling.time,
              s$sample.interval, if (x$memory) "; mem.total in MB" else ""))
  cat("\nTop functions by self time:\n")
  print(utils::head(s$by.self, n))
  if (x$lines) {
    l <- summary_rprof(x, memory = mem, lines = "show")$by.line
    l <- l[order(-l$self.time, -l$total.time), , drop = FALSE]
    l <- l[l$self.time > 0, , drop = FALSE]
    if (nrow(l)) {
      cat("\nTop lines by self time:\n")
      print(utils::head(l, n))
    }
  }
  cat("\nEvery function: summary(x); in the explorer: explore(x)\n")
  invisible(x)
}

summary.stackscope_profile <- function(object, ...) summary_rprof(object, ...)
