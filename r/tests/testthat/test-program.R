# Finding the program.

test_that("a missing program says how to install it", {
  old <- options(stackscope.path = NULL)
  path <- Sys.getenv("PATH")
  on.exit({
    options(old)
    Sys.setenv(PATH = path)
  })
  Sys.setenv(PATH = tempfile())
  expect_error(summary_rprof("x.out"), "autoreconf -fi && ./configure && make", fixed = TRUE)
  expect_error(summary_rprof("x.out"), "options(stackscope.path", fixed = TRUE)
  options(stackscope.path = tempfile())
  expect_error(summary_rprof("x.out"), "no executable file there")
  options(stackscope.path = c("a", "b"))
  expect_error(summary_rprof("x.out"), "must be one string")
})

test_that("the program's errors name the file and the line", {
  skip_if_no_program()
  bad <- tempfile(fileext = ".out")
  writeLines(c("sample.interval=20000", "\"a\" \"b"), bad)
  cat("\"c\" \n", file = bad, append = TRUE)
  expect_error(summary_rprof(bad), paste0(basename(bad), ":2:"))
})
