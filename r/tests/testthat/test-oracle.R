# Every Rprof file of the program's own test suite (the source tree's
# tests/data, given by STACKSCOPE_TESTDATA): summary_rprof() equals
# summaryRprof() (all.equal) for memory = "none" | "both" and lines =
# "hide" | "show" | "both" wherever R reads the file right.  Where R is
# wrong, each file is listed below with the reason, and the right answer is
# R's own on the file made readable (the cut-off line, the blank lines or
# the malformed #File line taken out, each session read alone, the spaces
# in names replaced), or an error the program gives.

# Why R is wrong on a file: the repair that makes R right, per mode.
r_wrong <- list(
  "rprof/append_mixed_flags.out" = "sessions",
  "rprof/append_two_sessions.out" = "sessions",
  "rprof/quirky_names.out" = "spaces",
  "rprof/quirky_names_line.out" = "spaces",
  "rprof/truncated_tail.out" = "cut",
  "edge-cases/append_interval_change.out" = "sessions",
  "edge-cases/append_memory_header.out" = "sessions",
  "edge-cases/blank_line_memory.out" = "blank",
  "edge-cases/blank_line_plain.out" = "blank",
  "edge-cases/trailing_blank_line.out" = "blank",
  "edge-cases/location_only_line.out" = "location-only",
  "edge-cases/space_in_label.out" = "spaces",
  "edge-cases/space_in_label_line.out" = "spaces",
  "edge-cases/truncated_mid_label.out" = "cut",
  "edge-cases/truncated_mid_memprefix.out" = "cut",
  "peers/profile-pkg/append_two_sessions.profilepkg.out" = "file-without-number",
  "peers/profile-pkg/gc.profilepkg.out" = "file-without-number",
  "peers/profile-pkg/memory.profilepkg.out" = "file-without-number",
  "peers/profile-pkg/plain_default.profilepkg.out" = "file-without-number",
  "peers/profile-pkg/quirky_names.profilepkg.out" = c("file-without-number", "spaces")
)
# Files the program refuses, and what it says.
refused <- list(
  "edge-cases/zero_bytes.out" = "empty file",
  "peers/profile-pkg/incomplete.out" = "incomplete.out:8:671: unterminated quoted name"
)

is_header <- function(x) grepl("sample.interval=", x, fixed = TRUE)

# The file's lines made readable for R, written to a new file.
repaired <- function(file, how) {
  x <- readLines(file, warn = FALSE)
  x <- switch(how,
    cut = x[-length(x)],
    blank = x[nzchar(x)],
    "file-without-number" = x[!startsWith(x, "#File : ")],
    "location-only" = x[!grepl("^(:[0-9:]+:)?([0-9]+#[0-9]+ )+$", x)],
    # a space inside a name is one not followed by a token's start
    spaces = ifelse(is_header(x) | startsWith(x, "#File"), x,
                    gsub(" (?=[^\"0-9])", "_", x, perl = TRUE)))
  out <- tempfile(fileext = ".out")
  writeLines(x, out)
  out
}

# The sessions of a file, each as a file of its own.
sessions <- function(file) {
  x <- readLines(file, warn = FALSE)
  starts <- which(is_header(x))
  ends <- c(starts[-1L] - 1L, length(x))
  mapply(function(a, b) {
    out <- tempfile(fileext = ".out")
    writeLines(x[a:b], out)
    out
  }, starts, ends)
}

flags_of <- function(file) {
  first <- readLines(file, n = 1L, warn = FALSE)
  c(memory = any(startsWith(first, "memory")),
    line = grepl("line profiling", first, fixed = TRUE))
}

modes_of <- function(file) {
  x <- readLines(file, warn = FALSE)
  h <- x[is_header(x)]
  mem <- any(startsWith(h, "memory"))
  line <- any(grepl("line profiling", h, fixed = TRUE))
  expand.grid(memory = c("none", if (mem) "both"),
              lines = c("hide", if (line) c("show", "both")),
              stringsAsFactors = FALSE)
}

# Tables compared by row name (the order of tied rows follows the names).
same_rows <- function(ours, want, tol = 1e-9) {
  if (!setequal(rownames(ours), rownames(want)))
    return(paste("rows differ:", paste(setdiff(union(rownames(ours), rownames(want)),
                                               intersect(rownames(ours), rownames(want))),
                                       collapse = ", ")))
  eq <- all.equal(as.matrix(ours[rownames(want), names(want)]), as.matrix(want),
                  tolerance = tol, scale = 1, check.attributes = FALSE)
  if (isTRUE(eq)) TRUE else eq
}

check_equal <- function(ours, r, what) {
  eq <- all.equal(ours, r)
  expect_true(isTRUE(eq), info = paste(c(what, head(eq, 5)), collapse = "\n"))
}

# Several sessions: each function's time is the sum of R's on each session
# read alone (R's rounding: within half a unit of the rounded digit, and of
# 0.05 MB per session), the sampling time exactly R's sum.  R's memory =
# "both" fails on a session of one sample, whose bytes are 0 (nothing to
# difference): R's times, then, and 0 MB.
session_summary <- function(p, m, l) {
  fl <- flags_of(p)
  mm <- if (fl[["memory"]]) m else "none"
  ll <- if (fl[["line"]]) l else "hide"
  r <- tryCatch(r_summary(p, mm, ll), error = function(e) NULL)
  if (is.null(r) && mm == "both" && length(readLines(p)) == 2L) {
    r <- r_summary(p, "none", ll)
    mm <- "none"
  }
  # a session without memory profiling allocates nothing we know of; one
  # without line profiling has no positions: all <no location>
  if (m == "both" && mm == "none") r$by.total$mem.total <- 0
  if (l == "show" && ll == "hide")
    r$by.total <- data.frame(total.time = r$sampling.time, mem.total = 0,
                             row.names = "<no location>")
  r
}

near <- function(x, y, tol, what) {
  eq <- all.equal(as.vector(x), as.vector(y), tolerance = tol, scale = 1)
  expect_true(isTRUE(eq), info = paste(c(what, eq), collapse = "\n"))
}

check_sessions <- function(ours, f, m, l, what) {
  rs <- Filter(Negate(is.null), lapply(sessions(f), session_summary, m, l))
  expect_gt(length(rs), 0L)
  total <- function(col) {
    v <- unlist(lapply(rs, function(r) setNames(r$by.total[[col]], rownames(r$by.total))))
    tapply(v, names(v), sum)
  }
  tt <- total("total.time")
  expect_setequal(rownames(ours$by.total), names(tt))
  n <- length(rs)
  near(ours$by.total[names(tt), "total.time"], unname(c(tt)), 0.0051 * n, what)
  if (m == "both") {
    mt <- total("mem.total")
    near(ours$by.total[names(mt), "mem.total"], unname(c(mt)), 0.051 * n, what)
  }
  near(ours$sampling.time, sum(vapply(rs, `[[`, 0, "sampling.time")), 1e-12, what)
}

test_that("summary_rprof equals summaryRprof on every Rprof file R reads right", {
  skip_if_no_program()
  dir <- repo_testdata()
  files <- c(Sys.glob(file.path(dir, "rprof", "*.out")),
             Sys.glob(file.path(dir, "edge-cases", "*.out")),
             Sys.glob(file.path(dir, "peers", "profile-pkg", "*.out")))
  expect_gt(length(files), 40L)
  for (f in files) {
    key <- sub(paste0("^", dir, "/"), "", f)
    if (!is.null(refused[[key]])) {
      expect_error(summary_rprof(f), refused[[key]], fixed = TRUE, info = key)
      next
    }
    modes <- modes_of(f)
    for (k in seq_len(nrow(modes))) {
      m <- modes$memory[k]
      l <- modes$lines[k]
      what <- paste(key, m, l)
      ours <- quiet(summary_rprof(f, memory = m, lines = l))
      how <- r_wrong[[key]]
      if (l != "hide") how <- setdiff(how, "location-only")
      if (identical(how, "sessions")) {
        check_sessions(ours, f, m, l, what)
        next
      }
      fixed <- f
      for (h in how) fixed <- repaired(fixed, h)
      r <- tryCatch(r_summary(fixed, m, l), error = function(e) NULL)
      if (is.null(r) && m == "both" && length(readLines(fixed)) == 2L) {
        # R's memory = "both" fails on one sample, whose bytes are 0
        expect_true(all(ours$by.total$mem.total == 0), info = what)
        r <- r_summary(fixed, "none", l)
        ours <- quiet(summary_rprof(f, memory = "none", lines = l))
      }
      what <- paste(c(what, how), collapse = " ")
      if ("spaces" %in% how) {
        # the same rows, by name, with the spaces in names replaced
        rename <- function(t) {
          n <- rownames(t)
          rownames(t) <- ifelse(startsWith(n, "\""),
                                gsub(" (?=[^\"0-9])", "_", n, perl = TRUE), n)
          t
        }
        for (t in intersect(c("by.self", "by.total", "by.line"), names(r))) {
          same <- same_rows(rename(ours[[t]]), r[[t]])
          expect_true(isTRUE(same), info = paste(what, t, same))
        }
        expect_equal(ours$sampling.time, r$sampling.time, info = what)
      } else {
        check_equal(ours, r, what)
      }
    }
  }
})

test_that("memory = 'both' differs from R's default chunks of 5000 lines, not from one chunk", {
  skip_if_no_program()
  f <- file.path(repo_testdata(), "rprof", "memory_line.out")
  expect_gt(length(readLines(f)), 5000L)
  ours <- summary_rprof(f, memory = "both")
  check_equal(ours, r_summary(f, "both"), "one chunk")
  r5000 <- suppressWarnings(utils::summaryRprof(f, memory = "both"))
  expect_false(isTRUE(all.equal(ours, r5000)))
  # R's restart credits the 5000th line's allocation to nothing: less memory
  expect_lt(sum(r5000$by.self$mem.total), sum(ours$by.self$mem.total))
})
