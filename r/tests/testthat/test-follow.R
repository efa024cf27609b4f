# follow(): Rprof() started on the file, the command that follows it
# printed; that command, run without a terminal, reports what the file
# holds with the transforms applied.

test_that("follow(): Rprof() started, the command printed and working", {
  skip_if_no_program()
  f <- tempfile(fileext = ".out")
  on.exit(utils::Rprof(NULL), add = TRUE)
  expect_message(line <- follow(f, interval = 0.005, window = "1s",
                                transforms = "trim-base auto"),
                 "Follow it in another terminal")
  t0 <- proc.time()[["elapsed"]]
  x <- 0
  while (proc.time()[["elapsed"]] - t0 < 0.3) x <- x + sum(sqrt(seq_len(1e4)))
  utils::Rprof(NULL)
  expect_match(line, "--follow --window 1s -e 'trim-base auto' ", fixed = TRUE)
  expect_match(line, normalizePath(f), fixed = TRUE)
  expect_match(readLines(f, n = 1L), "sample.interval=5000", fixed = TRUE)
  out <- system(paste(line, "</dev/null"), intern = TRUE)
  expect_true(any(grepl("^transform  trim-base auto", out)))
})

test_that("follow(): a bad window or file is refused", {
  expect_error(follow(window = 10), "one duration")
  expect_error(follow(file = character()), "one file name")
})
