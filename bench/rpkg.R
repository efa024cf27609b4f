# Rscript bench/rpkg.R PLAIN.out MEMORY_LINE.out (run by bench/rpkg.sh)
#
# One R process times utils::summaryRprof() (once: it takes seconds to
# minutes) and stackscope::summary_rprof() (median of 3) on the same file
# and mode, the file warm in the page cache.  CPU counts this process and
# its children (the stackscope program).
library(stackscope)
options(stackscope.path = Sys.getenv("STACKSCOPE"))
args <- commandArgs(trailingOnly = TRUE)
cases <- list(
  list(file = args[[1L]], memory = "none", lines = "hide"),
  list(file = args[[2L]], memory = "none", lines = "hide"),
  list(file = args[[2L]], memory = "both", lines = "hide"),
  list(file = args[[2L]], memory = "none", lines = "show"))
# RPKG_CASES="2 3": only those cases (1-based)
only <- scan(text = Sys.getenv("RPKG_CASES"), quiet = TRUE)
if (length(only)) cases <- cases[only]
cpu <- function(t) sum(t[c(1L, 2L, 4L, 5L)], na.rm = TRUE)
cat(sprintf("%-10s %-6s %-5s %8s %8s %8s %8s %7s %7s  %s\n", "file", "memory",
            "lines", "R_wall", "R_cpu", "ss_wall", "ss_cpu", "x_wall", "x_cpu",
            "all.equal"))
for (k in cases) {
  invisible(system2("cat", shQuote(k$file), stdout = FALSE))
  call <- function(f) f(k$file, memory = k$memory, lines = k$lines)
  r_t <- system.time(r <- call(utils::summaryRprof))
  runs <- lapply(1:3, function(i) system.time(s <- call(summary_rprof)))
  wall <- median(vapply(runs, `[[`, 0, "elapsed"))
  ccpu <- median(vapply(runs, cpu, 0))
  s <- call(summary_rprof)
  eq <- all.equal(s, r)
  # R's memory = "both" restarts every 5000 lines: compare with one chunk
  if (!isTRUE(eq) && k$memory == "both")
    eq <- paste("one chunk:", isTRUE(all.equal(s, utils::summaryRprof(k$file,
      memory = "both", chunksize = -1L))))
  cat(sprintf("%-10s %-6s %-5s %8.2f %8.2f %8.3f %8.3f %7.0f %7.0f  %s\n",
              basename(k$file), k$memory, k$lines, r_t[["elapsed"]], cpu(r_t),
              wall, ccpu, r_t[["elapsed"]] / wall, cpu(r_t) / ccpu,
              if (isTRUE(eq)) "TRUE" else paste(eq, collapse = "; ")))
}
