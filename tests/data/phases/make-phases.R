# make-phases.R: real Rprof profiles with phases whose boundaries are known
# exactly, for stackscope's phase detector (tests/phases.sh).
#
#   cd tests/data/phases && Rscript --vanilla make-phases.R [SEED]
#
# writes *.out and truth.tsv here.  Each profile is a run of real R work in
# phases of random length.  Each phase is profiled on its own, into its own
# Rprof file (same interval, same flags); the profile is then the first
# file's header line followed by the sample lines of every phase in order.
# So the boundary between two phases is known by construction: phase k + 1
# starts at sample 1 + (the sample lines of phases 1..k), with nothing in
# the samples that marks it (no marker call, no session header: the
# detector sees one ordinary Rprof session).  The profiler stops and starts
# again between phases, so a few milliseconds of the script between them
# are not sampled; nothing else differs from one long Rprof run.
#
# Kinds of profile:
#   sfw   burn-in that simulates data, main part that fits models, fade-out
#         that writes results (the shape of a typical analysis script);
#   mix   two phases that call the SAME functions in different proportions:
#         80% work_sort / 20% work_solve, then 20% / 80% (or 80/20 then
#         20/80 of three helpers), so no dominant function changes at the
#         first level below the scaffold of one phase to the next;
#   smix  a simulating burn-in, then the mix phases.
# Every function is compiled (called once) before profiling starts, so the
# byte compiler's frames do not open a phase.
args <- commandArgs(TRUE)
seed <- if (length(args) >= 1) as.integer(args[1]) else 29L
set.seed(seed)
invisible(compiler::enableJIT(3))

cpu <- function() {
  p <- proc.time()
  p[[1]] + p[[2]]
}

## ------------------------------------------------------------ burn-in
simulate_cohort <- function(n) {
  x <- matrix(rnorm(n * 6), n)
  g <- factor(sample(letters[1:8], n, replace = TRUE))
  y <- drop(x %*% runif(6)) + as.integer(g) / 4 + rnorm(n)
  d <- data.frame(x, g = g, y = y)
  d[order(d$g, d$y), ]
}

simulate_data <- function(secs) {
  t0 <- cpu()
  out <- list()
  while (cpu() - t0 < secs) {
    out[[length(out) + 1L]] <- simulate_cohort(sample(1500:2500, 1))
    if (length(out) > 8) out <- out[-1]
  }
  do.call(rbind, out)
}

## ------------------------------------------------------------ main
fit_one <- function(d) {
  fit <- lm(y ~ ., data = d)
  coef(summary(fit))
}

fit_models <- function(data, secs) {
  t0 <- cpu()
  res <- list()
  while (cpu() - t0 < secs) {
    idx <- sample.int(nrow(data), 1500, replace = TRUE)
    res[[length(res) + 1L]] <- fit_one(data[idx, ])
    if (length(res) > 50) res <- res[-1]
  }
  res
}

## ------------------------------------------------------------ fade-out
write_results <- function(res, secs) {
  t0 <- cpu()
  f <- tempfile()
  on.exit(unlink(f))
  while (cpu() - t0 < secs) {
    lines <- unlist(lapply(res, function(m) {
      sprintf("%s\t%s", rownames(m), formatC(m[, 1], digits = 8, format = "g"))
    }))
    writeLines(paste(lines, format(Sys.time()), sep = "\t"), f)
    write.csv(as.data.frame(do.call(rbind, res)), f, row.names = FALSE)
  }
  invisible(NULL)
}

## ------------------------------------------------------------ mixes
work_sort <- function() sort(runif(40000))
work_solve <- function() {
  m <- matrix(rnorm(160 * 160), 160)
  solve(crossprod(m) + diag(160))
}
work_paste <- function() nchar(paste(sample(letters, 30000, TRUE), collapse = ""))

mix_phase <- function(shares, secs) {
  t0 <- cpu()
  while (cpu() - t0 < secs) {
    k <- sample.int(length(shares), 1, prob = shares)
    if (k == 1) work_sort() else if (k == 2) work_solve() else work_paste()
  }
  invisible(NULL)
}

## ------------------------------------------------------------ driver
sample_lines <- function(file) {
  x <- readLines(file)
  x[!grepl("^(sample\\.interval=|#File )", x)]
}

# Make one profile of `kind` into `out`; its phases' sample counts.  The
# phase functions are called by name, as a script calls them, each between
# Rprof(FILE) and Rprof(NULL).
make_profile <- function(out, kind, interval, total) {
  # CPU seconds for about `total` samples: the kernel's timer ticks every
  # 4 ms here, so a shorter interval samples every 4 ms all the same
  secs <- total * max(interval, 0.004)
  parts <- switch(kind,
    sfw = c(runif(1, 0.08, 0.3), NA, runif(1, 0.04, 0.15)),
    mix = c(runif(1, 0.3, 0.7), NA),
    smix = c(runif(1, 0.08, 0.25), runif(1, 0.3, 0.5), NA)
  )
  parts[is.na(parts)] <- 1 - sum(parts, na.rm = TRUE)
  s <- parts * secs
  mix <- if (runif(1) < 0.5) list(c(0.8, 0.2), c(0.2, 0.8)) else
    list(c(0.8, 0.1, 0.1), c(0.1, 0.1, 0.8))
  files <- replicate(length(parts), tempfile(fileext = ".out"))
  start <- function(k) Rprof(files[k], interval = interval)
  if (kind == "sfw") {
    start(1); data <- simulate_data(s[1]); Rprof(NULL)
    start(2); res <- fit_models(data, s[2]); Rprof(NULL)
    start(3); write_results(res, s[3]); Rprof(NULL)
  } else if (kind == "mix") {
    start(1); mix_phase(mix[[1]], s[1]); Rprof(NULL)
    start(2); mix_phase(mix[[2]], s[2]); Rprof(NULL)
  } else {
    start(1); data <- simulate_data(s[1]); Rprof(NULL)
    start(2); mix_phase(mix[[1]], s[2]); Rprof(NULL)
    start(3); mix_phase(mix[[2]], s[3]); Rprof(NULL)
  }
  header <- readLines(files[1], n = 1)
  body <- lapply(files, sample_lines)
  writeLines(c(header, unlist(body)), out)
  unlink(files)
  lengths(body)
}

# Warm-up: every function compiled and run once, unprofiled.
invisible(simulate_data(0.05))
warm <- simulate_data(0.2)
warm_res <- fit_models(warm, 0.1)
write_results(warm_res, 0.05)
mix_phase(c(0.5, 0.5), 0.1)
mix_phase(c(0.3, 0.3, 0.4), 0.1)

kinds <- c(rep("sfw", 5), rep("mix", 4), rep("smix", 3))
truth <- data.frame(file = character(0), kind = character(0), interval_ms = numeric(0),
                    samples = integer(0), boundaries = character(0))
for (i in seq_along(kinds)) {
  name <- sprintf("%s%02d.out", kinds[i], i)
  interval <- sample(c(0.002, 0.003, 0.004, 0.005), 1)
  total <- sample(2500:4500, 1)
  n <- make_profile(name, kinds[i], interval, total)
  starts <- cumsum(n)[-length(n)] + 1
  truth[nrow(truth) + 1, ] <- list(name, kinds[i], interval * 1000, sum(n),
                                   paste(starts, collapse = ","))
  cat(sprintf("%s: %d samples, phases start at 1,%s\n", name, sum(n),
              paste(starts, collapse = ",")))
}
write.table(truth, "truth.tsv", sep = "\t", quote = FALSE, row.names = FALSE)
