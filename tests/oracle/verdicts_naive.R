# verdicts_naive.R - the naive test (tests/verdicts.sh): every sample taken
# as independent, each function's self and total compared with R's
# prop.test, Benjamini-Hochberg over each table (p.adjust), at 0.05.
#   Rscript verdicts_naive.R BASE NEW [BASE NEW ...]
# (Rprof files) prints, for all the pairs together, "FLAGGED ROWS RAW": the
# rows of both tables flagged, their number, and the rows with p < 0.05
# before the adjustment.
args <- commandArgs(TRUE)
read <- function(f) {
    l <- readLines(f)[-1]
    lapply(regmatches(l, gregexpr('"[^"]*"', l)), function(x) gsub('"', "", x))
}
flagged <- 0
raw <- 0
rows <- 0
for (k in seq(1, length(args), by = 2)) {
    b <- read(args[k])
    n <- read(args[k + 1])
    for (self in c(TRUE, FALSE)) {
        pick <- function(s) unlist(if (self) lapply(s, `[`, 1) else lapply(s, unique))
        fb <- table(pick(b))
        fn <- table(pick(n))
        keys <- union(names(fb), names(fn))
        xb <- ifelse(is.na(fb[keys]), 0, fb[keys])
        xn <- ifelse(is.na(fn[keys]), 0, fn[keys])
        p <- mapply(function(x, y) suppressWarnings(
            prop.test(c(y, x), c(length(n), length(b)))$p.value), xb, xn)
        flagged <- flagged + sum(p.adjust(p, "BH") <= 0.05, na.rm = TRUE)
        raw <- raw + sum(p < 0.05, na.rm = TRUE)
        rows <- rows + length(keys)
    }
}
cat(flagged, rows, raw, "\n")
