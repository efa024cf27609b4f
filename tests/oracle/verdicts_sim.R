# verdicts_sim.R - profiles with a known truth for the verdicts' tests
# (tests/verdicts.sh): Rprof files of a program whose functions run in calls
# of random lengths.
#   Rscript verdicts_sim.R DIR PAIRS N PLANTED NP SEED
# writes DIR/a<i>.out and DIR/b<i>.out, i = 1..PAIRS: two independent runs
# of the same program, N samples each; and DIR/q<i>.out and DIR/p<i>.out,
# i = 1..PLANTED, NP samples each: a run of the program and a run of the
# program whose function f2 makes calls 25% longer (25% more work).
# The program: main calls one of eight functions at a time, each chosen
# with its own probability, each call lasting a geometric number of
# samples with its own mean (from 1 to 40 samples); a call of f5 or f6
# spends part of its length in a callee, g; one sample in ten is main
# alone, between calls.  Consecutive samples of one call share its stack
# (the autocorrelation of a real profile); calls are independent.
args <- commandArgs(TRUE)
dir <- args[1]
pairs <- as.integer(args[2])
n <- as.integer(args[3])
planted <- as.integer(args[4])
np <- as.integer(args[5])
set.seed(as.integer(args[6]))
fns <- paste0("f", 1:8)
prob <- c(0.25, 0.2, 0.15, 0.12, 0.1, 0.08, 0.06, 0.04)
mean_len <- c(1, 2, 4, 8, 15, 25, 40, 3)

run <- function(file, n, scale2) {
    m <- mean_len
    m[2] <- m[2] * scale2
    calls <- ceiling(n / 4)
    f <- sample.int(9, calls, replace = TRUE, prob = c(prob * 0.9, 0.1)) # 9: main alone
    len <- ifelse(f == 9, 1, rgeom(calls, 1 / m[pmin(f, 8)]) + 1)
    child <- ifelse(f %in% c(5, 6), rbinom(calls, len, 0.4), 0)
    leaf <- rep(f, len)
    pos <- sequence(len)
    in_child <- pos <= rep(child, len)
    stopifnot(length(leaf) >= n)
    leaf <- leaf[1:n]
    in_child <- in_child[1:n]
    lines <- ifelse(leaf == 9, "\"main\" ",
                    ifelse(in_child, sprintf("\"g\" \"%s\" \"main\" ", fns[pmin(leaf, 8)]),
                           sprintf("\"%s\" \"main\" ", fns[pmin(leaf, 8)])))
    writeLines(c("sample.interval=10000", lines), file)
}
for (i in seq_len(pairs)) {
    run(file.path(dir, sprintf("a%d.out", i)), n, 1)
    run(file.path(dir, sprintf("b%d.out", i)), n, 1)
}
for (i in seq_len(planted)) {
    run(file.path(dir, sprintf("q%d.out", i)), np, 1)
    run(file.path(dir, sprintf("p%d.out", i)), np, 1.25)
}
