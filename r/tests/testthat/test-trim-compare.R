# trim() and compare(): data frames from the program; the trimmed file and
# the comparison checked with R's summaryRprof() on each file.

test_that("trim() lists what each step did and writes the trimmed profile", {
  skip_if_no_program()
  f <- extdata("profvis_nosimplify.out")
  out <- tempfile(fileext = ".out")
  tf <- trim(f, c("trim-base auto", "focus FUN"), output = out)
  expect_s3_class(tf, "data.frame")
  expect_identical(tf$command, c("trim-base auto", "focus FUN"))
  expect_identical(tf$samples_in[1L], 131)
  expect_identical(attr(tf, "output"), out)
  # R reads the written file: its sampling time is what the last step kept
  r <- utils::summaryRprof(out)
  expect_equal(r$sampling.time, tf$time_out[2L])
  expect_equal(summary_rprof(out), r)
  # FUN is at the top of every kept stack
  expect_equal(r$by.total["\"FUN\"", "total.pct"], 100)
  expect_error(trim(f, c("trim-base auto", "focus FUN"), output = out), "exists")
  expect_silent(trim(f, "trim-base auto", output = out, force = TRUE))
  expect_error(trim(f, "bogus"), "unknown command 'bogus'")
  expect_warning(trim(f, "focus no_such_function"), "no function matches")
})

test_that("compare(): base, new and delta, equal to R's on each file", {
  skip_if_no_program()
  base <- extdata("profvis_nosimplify.out")
  new <- extdata("profvis.out")
  d <- compare(base, new, by = "total")
  expect_true(all(c("name", "self.base", "self", "self.delta", "total.base", "total",
                    "total.delta") %in% names(d)))
  rb <- utils::summaryRprof(base)$by.total
  rn <- utils::summaryRprof(new)$by.total
  r_time <- function(r, name) {
    t <- r[paste0("\"", name, "\""), "total.time"]
    ifelse(is.na(t), 0, t)
  }
  expect_equal(round(d$total.base, 3), r_time(rb, d$name))
  expect_equal(round(d$total, 3), r_time(rn, d$name))
  expect_equal(d$total.delta, d$total - d$total.base)
  # largest growth first
  expect_false(is.unsorted(-d$total.delta))
  # the verdicts (issue 28), where the program gives them
  v <- grep("verdict$", names(d), value = TRUE)
  for (cl in v) expect_true(all(d[[cl]] %in% c("grew", "shrank", "~")))
  d2 <- compare(base, new, transforms = "trim-base auto", normalize = TRUE)
  expect_equal(sum(d2$self.base), sum(d2$self))
})
