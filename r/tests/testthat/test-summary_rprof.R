# summary_rprof() against R's own summaryRprof() on the files R reads
# correctly, and against hand-computed answers where R is wrong.

expect_same_as_r <- function(ours, r, what = "") {
  eq <- all.equal(ours, r)
  expect_true(isTRUE(eq), info = paste(c(what, eq), collapse = "\n"))
}

test_that("equals summaryRprof() on a memory + GC + line profile, every mode", {
  skip_if_no_program()
  f <- extdata("profvis.out")
  for (memory in c("none", "both")) for (lines in c("hide", "show", "both")) {
    expect_same_as_r(summary_rprof(f, memory = memory, lines = lines),
                     r_summary(f, memory, lines), paste(memory, lines))
  }
})

test_that("equals summaryRprof() on plain and memory profiles", {
  skip_if_no_program()
  f <- fixture("plain_default.out")
  ours <- summary_rprof(f)
  expect_same_as_r(ours, r_summary(f))
  expect_identical(names(ours), c("by.self", "by.total", "sample.interval", "sampling.time"))
  expect_identical(names(ours$by.total), c("total.time", "total.pct", "self.time", "self.pct"))
  f <- fixture("memory.out")
  expect_same_as_r(summary_rprof(f), r_summary(f))
  ours <- summary_rprof(f, memory = "both")
  expect_same_as_r(ours, r_summary(f, "both"))
  expect_identical(names(ours$by.total),
                   c("total.time", "total.pct", "mem.total", "self.time", "self.pct"))
})

test_that("a profile object is summarised as its file", {
  skip_if_no_program()
  p <- structure(list(file = extdata("profvis.out"), interval = 0.005,
                      memory = TRUE, lines = TRUE), class = "stackscope_profile")
  expect_same_as_r(summary(p, lines = "show"), r_summary(p$file, lines = "show"))
})

test_that("memory = 'tseries' and 'stats' equal summaryRprof()'s", {
  skip_if_no_program()
  f <- fixture("memory.out")
  for (index in c(2, 1, -2, 3)) {
    expect_same_as_r(summary_rprof(f, memory = "tseries", index = index),
                     suppressWarnings(utils::summaryRprof(f, memory = "tseries", index = index)),
                     paste("tseries", index))
  }
  expect_same_as_r(summary_rprof(f, memory = "tseries", diff = FALSE),
                   utils::summaryRprof(f, memory = "tseries", diff = FALSE))
  for (index in c(2, -1)) {
    ours <- summary_rprof(f, memory = "stats", index = index)
    r <- utils::summaryRprof(f, memory = "stats", index = index)
    expect_s3_class(ours, "by")
    expect_same_as_r(ours, r, paste("stats", index))
  }
  ex <- c("\"eval\"", "withVisible")
  expect_same_as_r(summary_rprof(f, memory = "stats", exclude = ex),
                   utils::summaryRprof(f, memory = "stats",
                                       exclude = c("\"eval\"", "\"withVisible\"")))
})

test_that("chunksize is accepted and changes nothing", {
  skip_if_no_program()
  f <- fixture("memory.out")
  expect_identical(summary_rprof(f, chunksize = 10, memory = "both"),
                   summary_rprof(f, memory = "both"))
})

test_that("R's argument errors", {
  skip_if_no_program()
  f <- fixture("plain_default.out")
  expect_error(summary_rprof(f, memory = "both"), "no memory profiling")
  expect_error(summary_rprof(f, lines = "show"), "no line profiling")
  expect_error(summary_rprof(f, lines = "both"), "does not contain line information")
  expect_error(summary_rprof(f, memory = "tseries"), "does not contain memory information")
  expect_error(summary_rprof(f, memory = "bogus"), "should be one of")
  expect_error(summary_rprof(fixture("no-such-file.out")), "cannot open|No such file")
})

# ---- where R is wrong: the right answers, computed by hand -----------------

right_table <- function(names, self, total, cols = c("self", "total")) {
  n <- sum(self)
  df <- data.frame(self.time = self, self.pct = round(100 * self / n, 2),
                   total.time = total, total.pct = round(100 * total / n, 2))
  rownames(df) <- names
  if (identical(cols, "total")) df[c(3L, 4L, 1L, 2L)] else df
}

test_that("a name with a space is one function (R splits it in two)", {
  skip_if_no_program()
  # "weird name" "f"  and  "f": f self 1 total 2, weird name self 1 total 1
  ours <- summary_rprof(fixture("space_in_label.out"))
  expect_equal(ours$by.self,
               right_table(c("\"f\"", "\"weird name\""), c(0.02, 0.02), c(0.04, 0.02)))
  expect_equal(ours$by.total,
               right_table(c("\"f\"", "\"weird name\""), c(0.02, 0.02), c(0.04, 0.02), "total"))
  expect_identical(ours$sampling.time, 0.04)
  # R reads the name as two tokens, "weird and name"
  expect_false("\"weird name\"" %in% rownames(r_summary(fixture("space_in_label.out"))$by.total))
  # 1#2 "weird name" 1#5 "f": positions a.R#2 (self) and a.R#5; R takes
  # name" for a position too, NA#name"
  ours <- summary_rprof(fixture("space_in_label_line.out"), lines = "show")
  expect_equal(ours$by.line, right_table(c("a.R#2", "a.R#5"), c(0.02, 0), c(0.02, 0.02)))
  r <- r_summary(fixture("space_in_label_line.out"), lines = "show")
  expect_true("NA#name\"" %in% rownames(r$by.line))
})

test_that("sessions with other intervals are timed with their own (R uses the first)", {
  skip_if_no_program()
  # session 1, 20 ms: a a; session 2, 5 ms: b b b b
  ours <- summary_rprof(fixture("append_interval_change.out"))
  expect_equal(ours$by.self, right_table(c("\"a\"", "\"b\""), c(0.04, 0.02), c(0.04, 0.02)))
  expect_equal(ours$sampling.time, 0.06)
  expect_identical(ours$sample.interval, 0.02)
  r <- r_summary(fixture("append_interval_change.out"))
  expect_equal(r$by.self["\"b\"", "self.time"], 0.08) # R: 4 x 20 ms
})

test_that("a cut-off last line is dropped with a warning (R counts it)", {
  skip_if_no_program()
  expect_warning(ours <- summary_rprof(fixture("truncated_mid_label.out")),
                 "truncated_mid_label.out:3: the last line has no line end")
  expect_equal(ours$by.total, right_table(c("\"a\"", "\"b\""), c(0.02, 0), c(0.02, 0.02), "total"))
})

test_that("a blank line is skipped (R fails)", {
  skip_if_no_program()
  expect_warning(ours <- summary_rprof(fixture("blank_line_plain.out")),
                 "blank_line_plain.out:3: 1 blank line ignored")
  expect_equal(ours$by.total,
               right_table(c("\"b\"", "\"a\""), c(0.02, 0.02), c(0.04, 0.02), "total"))
  expect_error(utils::summaryRprof(fixture("blank_line_plain.out")))
})
