# read_profile(): the v2 tables; their samples add up to summary_rprof()'s
# (itself checked against summaryRprof()).

# A function's self and total from the tables, by base R: self counts the
# samples whose depth-1 frame is it, total those whose stack holds it.
function_sums <- function(tb, v) {
  st <- tb$stacks[!is.na(tb$stacks$location_id), ]
  st$fn <- tb$functions$name[tb$locations$function_id[st$location_id]]
  st <- st[!is.na(st$fn), ]
  leaf <- st[st$depth == 1L, c("stack_id", "fn")]
  has <- unique(st[c("stack_id", "fn")])
  w <- tapply(tb$samples[[v]], tb$samples$stack_id, sum)
  wt <- function(ids) unname(w[as.character(ids)])
  sum_by <- function(v, f) {
    r <- tapply(v, f, sum)
    setNames(as.vector(r), names(r))
  }
  list(self = sum_by(wt(leaf$stack_id), leaf$fn), total = sum_by(wt(has$stack_id), has$fn))
}

test_that("the tables: every table, ids 1-based, the measure columns", {
  skip_if_no_program()
  tb <- read_profile(extdata("profvis.out"))
  expect_setequal(names(tb), c("meta", "sources", "value_types", "samples", "stacks",
                               "locations", "functions"))
  expect_identical(tb$samples$sample_id, seq_len(nrow(tb$samples)))
  expect_identical(tb$functions$function_id, seq_len(nrow(tb$functions)))
  expect_identical(tb$value_types$type[1L], "samples")
  expect_true(all(c("samples", "small_v", "big_v", "nodes", "dup_count", "time",
                    "memory", "released") %in% names(tb$samples)))
  expect_identical(tb$sources$interval_us, 5000)
  expect_identical(tb$sources$flags, "memory+GC+line")
  # 158 sample lines, as the file has (after the header and a #File line)
  expect_identical(nrow(tb$samples), length(readLines(extdata("profvis.out"))) - 2L)
  expect_equal(tb$samples$time, rep(0.005, 158L))
  # the first sample of a session allocates nothing counted
  expect_identical(tb$samples$memory[1L], 0)
  sl <- read_profile(extdata("profvis.out"), sample_locations = TRUE)$sample_locations
  expect_identical(names(sl), c("sample_id", "depth", "location_id"))
  expect_setequal(unique(sl$sample_id), tb$samples$sample_id[
    tb$samples$stack_id %in% tb$stacks$stack_id[!is.na(tb$stacks$location_id)]])
})

test_that("samples and per-function sums equal summary_rprof's", {
  skip_if_no_program()
  for (f in c(extdata("profvis.out"), fixture("memory.out"), fixture("plain_default.out"))) {
    tb <- read_profile(f)
    mem <- "memory" %in% names(tb$samples)
    s <- summary_rprof(f, memory = if (mem) "both" else "none")
    framed <- tb$samples$stack_id %in% tb$stacks$stack_id[!is.na(tb$stacks$location_id)]
    expect_equal(sum(tb$samples$time[framed]), s$sampling.time, info = f)
    expect_equal(sum(framed) * s$sample.interval, s$sampling.time, info = f)
    digits <- if (s$sample.interval < 0.01) 3L else 2L
    sums <- function_sums(tb, "time")
    names <- sub("^\"(.*)\"$", "\\1", rownames(s$by.total))
    expect_setequal(names(sums$total), names)
    expect_equal(round(unname(sums$total[names]), digits), s$by.total$total.time, info = f)
    self <- sums$self[names]
    self[is.na(self)] <- 0
    expect_equal(round(unname(self), digits), s$by.total$self.time, info = f)
    if (mem) {
      m <- function_sums(tb, "memory")$total[names]
      expect_equal(round(unname(m) / 1048576, 1), as.vector(s$by.total$mem.total), info = f)
    }
  }
})

test_that("names keep their bytes: escapes are undone", {
  expect_identical(stackscope:::unescape(c("a\\\\b", "t\\tx", "\\x1b[2J", "plain", NA)),
                   c("a\\b", "t\tx", "\033[2J", "plain", NA))
  expect_identical(charToRaw(stackscope:::unescape("\\xc2\\x9b")), as.raw(c(0xc2, 0x9b)))
})
