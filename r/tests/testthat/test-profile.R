# profile(): Rprof() around an expression; print, summary.

busy <- function(n) {
  s <- 0
  for (i in seq_len(n)) s <- s + sqrt(i)
  s
}

test_that("profile() records the expression with memory profiling", {
  skip_if_no_program()
  f <- tempfile(fileext = ".out")
  p <- profile(busy(3e6), interval = 0.002, file = f)
  expect_s3_class(p, "stackscope_profile")
  expect_identical(p$file, normalizePath(f))
  first <- readLines(f, n = 1L)
  expect_match(first, "^memory profiling: .*sample.interval=2000$")
  expect_match(first, "line profiling")
  # summary() is summary_rprof(), equal to R's on this fresh file
  s <- summary(p)
  expect_equal(s, utils::summaryRprof(f))
  expect_true("\"busy\"" %in% rownames(s$by.total))
  expect_equal(summary(p, memory = "both"),
               utils::summaryRprof(f, memory = "both", chunksize = -1L))
  out <- paste(capture.output(print(p)), collapse = "\n")
  expect_match(out, "Top functions by self time", fixed = TRUE)
  expect_match(out, "busy", fixed = TRUE)
  expect_match(out, "explore(x)", fixed = TRUE)
})

test_that("the profiler stops when the expression fails", {
  skip_if_no_program()
  f <- tempfile(fileext = ".out")
  expect_error(profile(stop("boom"), file = f), "boom")
  size <- file.size(f)
  busy(1e5)
  expect_identical(file.size(f), size)
})

test_that("an expression faster than the interval has no samples, and says so", {
  skip_if_no_program()
  p <- profile(1 + 1, interval = 0.5)
  expect_match(paste(capture.output(print(p)), collapse = "\n"), "no samples")
})
