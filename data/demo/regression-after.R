# The demo workload after a change (data/demo-after.out, the "after" of the
# README's comparison): regression.R with the bootstrap fits made on model
# matrices built once per formula (lm.fit on resampled rows) instead of
# lm() on a resampled data frame each time.  Everything else is as in
# regression.R.
#
# Workload profiled to make stackscope's bundled demo profile (data/demo.out).
#
# A small "study": simulate a population, fit many linear models over bootstrap
# resamples and model formulas (as in the sprof vignette's lm example), then
# write a summary. data/make-demo.R sources this file with keep.source=TRUE so
# that Rprof's line profiling points at lines of THIS file: do not reformat it
# casually, the line numbers end up in the profile.
#
# Phases, in time order:
#   1. burn-in   load splines, simulate a population (rnorm, sample, factors,
#                order, cut, sprintf) and draw the study cohort from it
#   2. main      lapply over resamples x formulas: lm, model.frame, lm.fit, ...
#   3. fade-out  summarise coefficients, format them and the bootstrap draws,
#                writeLines to tempfiles
# Every sample shares main -> run_study -> with_timing -> system.time at the
# root; all but the first few (system.time's gc()) also share execute_plan.

## ------------------------------------------------------------ burn-in
simulate_cohort <- function(n, sites) {
  age <- round(runif(n, 20, 80))
  dose <- rgamma(n, shape = 2, rate = 0.5)
  site <- factor(sample(sites, n, replace = TRUE), levels = sites)
  sex <- factor(sample(c("f", "m"), n, replace = TRUE))
  smoker <- factor(sample(c("never", "former", "current"), n,
                          replace = TRUE, prob = c(0.5, 0.3, 0.2)))
  site_effect <- rnorm(length(sites), sd = 0.8)[as.integer(site)]
  eta <- 1 + 0.03 * age + 0.4 * log1p(dose) + site_effect +
    0.3 * (sex == "m") - 0.5 * (smoker == "current")
  data.frame(age = age, dose = dose, site = site, sex = sex,
             smoker = smoker, response = eta + rnorm(n, sd = 1.5))
}

simulate_population <- function(k, n, sites) {
  cohorts <- vector("list", k)
  for (i in seq_len(k)) {
    d <- simulate_cohort(n, sites)
    # a little cleaning, as real scripts do
    d <- d[order(d$site, d$age), ]
    d$age_group <- cut(d$age, breaks = c(19, 35, 50, 65, 80))
    d$id <- sprintf("P%05d-%s", seq_len(nrow(d)), d$site)
    cohorts[[i]] <- d
  }
  do.call(rbind, cohorts)
}

draw_cohort <- function(population, size) {
  keep <- sort(sample.int(nrow(population), size))
  population[keep, ]
}

load_packages <- function() {
  suppressPackageStartupMessages(library(splines))
  invisible(TRUE)
}

## ------------------------------------------------------------ main phase
study_formulas <- function() {
  list(
    base   = response ~ age + sex,
    site   = response ~ age + sex + site,
    smoke  = response ~ age + sex + site + smoker,
    dose   = response ~ age + sex + site + smoker + log1p(dose),
    spline = response ~ ns(age, df = 3) + sex + site + smoker + log1p(dose),
    group  = response ~ age_group * sex + site + smoker
  )
}

# the change: a model matrix and response per formula, made once
design <- function(formula, data) {
  mf <- model.frame(formula, data = data)
  list(x = model.matrix(formula, mf), y = model.response(mf))
}

fit_one <- function(d, idx) {
  fit <- lm.fit(d$x[idx, , drop = FALSE], d$y[idx])
  fit$coefficients
}

fit_resample <- function(b, designs, n) {
  idx <- sample.int(n, replace = TRUE)
  lapply(designs, fit_one, idx = idx)
}

fit_bootstrap_models <- function(data, formulas, reps) {
  designs <- lapply(formulas, design, data = data)
  lapply(seq_len(reps), fit_resample, designs = designs, n = nrow(data))
}

## ------------------------------------------------------------ fade-out
summarise_fits <- function(fits, formulas) {
  out <- lapply(names(formulas), function(m) {
    coefs <- do.call(rbind, lapply(fits, `[[`, m))
    est <- colMeans(coefs)
    se <- apply(coefs, 2, sd)
    ci <- apply(coefs, 2, quantile, probs = c(0.025, 0.975))
    data.frame(model = m, term = colnames(coefs), estimate = est,
               se = se, lower = ci[1, ], upper = ci[2, ],
               row.names = NULL)
  })
  do.call(rbind, out)
}

write_draws <- function(fits, path) {
  rows <- lapply(seq_along(fits), function(b) {
    per_model <- lapply(names(fits[[b]]), function(m) {
      est <- fits[[b]][[m]]
      data.frame(rep = b, model = m, term = names(est), estimate = est)
    })
    do.call(rbind, per_model)
  })
  draws <- do.call(rbind, rows)
  write.csv(draws, path, row.names = FALSE)
  writeLines(paste(draws$rep, draws$model, draws$term,
                   formatC(draws$estimate, digits = 6, format = "g"),
                   sep = "\t"), sub("csv$", "tsv", path))
}

write_report <- function(tab, path) {
  lines <- c("model\tterm\testimate\tse\tlower\tupper",
             sprintf("%s\t%s\t%s\t%s\t%s\t%s", tab$model, tab$term,
                     format(tab$estimate, digits = 4),
                     format(tab$se, digits = 4),
                     format(tab$lower, digits = 4),
                     format(tab$upper, digits = 4)))
  writeLines(lines, path)
  invisible(length(lines))
}

## ------------------------------------------------------------ scaffold
execute_plan <- function(plan) {
  load_packages()
  population <- simulate_population(plan$cohorts, plan$n, plan$sites)
  cohort <- draw_cohort(population, plan$cohort_size)
  formulas <- study_formulas()
  fits <- fit_bootstrap_models(cohort, formulas, plan$reps)
  tab <- summarise_fits(fits, formulas)
  write_draws(fits, paste0(plan$out, "-draws.csv"))
  write_report(tab, paste0(plan$out, "-summary.tsv"))
  invisible(tab)
}

with_timing <- function(expr) {
  timing <- system.time(value <- expr)
  attr(value, "timing") <- timing
  value
}

run_study <- function(plan) {
  with_timing(execute_plan(plan))
}

main <- function(reps = 150, cohorts = 400, n = 500, cohort_size = 20000) {
  plan <- list(reps = reps, cohorts = cohorts, n = n,
               cohort_size = cohort_size,
               sites = sprintf("site%02d", 1:12), out = tempfile("study-"))
  on.exit(unlink(paste0(plan$out, c("-draws.csv", "-draws.tsv", "-summary.tsv"))))
  run_study(plan)
}
