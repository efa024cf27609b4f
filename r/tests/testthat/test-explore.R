# explore(): without a terminal (as here) it prints the command to run;
# that command, run without a terminal, prints the report with the
# transforms applied.

test_that("without a terminal: the command, with --resume and the transforms", {
  skip_if_no_program()
  f <- extdata("profvis_nosimplify.out")
  expect_message(line <- explore(f, transforms = c("trim-base auto", "focus \"FUN\""),
                                 resume = FALSE),
                 "needs a terminal")
  expect_match(line, "-e 'trim-base auto' -e 'focus \"FUN\"'", fixed = TRUE)
  expect_match(line, f, fixed = TRUE)
  out <- system(paste(line, "</dev/null"), intern = TRUE)
  expect_true(any(grepl("^transform  trim-base auto", out)))
  expect_true(any(grepl("^transform  focus FUN", out)))
  expect_message(line <- explore(f, resume = TRUE, preset = "r"), "needs a terminal")
  expect_match(line, "--resume --preset r ", fixed = TRUE)
  p <- structure(list(file = f), class = "stackscope_profile")
  expect_message(line <- explore(p, base = f), "needs a terminal")
  expect_match(line, paste("--base", f, f), fixed = TRUE)
})

test_that("transforms must be commands", {
  expect_error(explore("x.out", transforms = 1), "character vector of transform commands")
})
