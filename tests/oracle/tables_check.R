# Reads stackscope's v2 tables in R with the lines the man page gives,
# computes self time per function with the man page's example and total time
# here, and compares both with stackscope's `report --by self --format tsv`
# of the same profile.  For tests/formats.sh.
#
#   LC_ALL=C Rscript tests/oracle/tables_check.R LIST MANLINES
#
# LIST: tab-separated, no header: label, tables directory, report TSV.
# MANLINES: the R lines of stackscope(1) (FORMATS, v2 tables), extracted by
# tests/formats.sh: the lines that load the tables into `v2` (given `dir`),
# then the example whose value is the self time per function.
# Prints "PASS label (N functions)" or "FAIL label: why" per row; exit
# status 1 if any failed.

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 2L) {
  cat("usage: Rscript tables_check.R LIST MANLINES\n", file = stderr())
  quit(status = 2L)
}
invisible(Sys.setlocale("LC_COLLATE", "C"))
jobs <- read.delim(args[[1L]], header = FALSE, quote = "", colClasses = "character",
                   col.names = c("label", "dir", "ours"))
man_lines <- parse(file = args[[2L]], keep.source = FALSE)

check <- function(dir, ours_file) {
  # --- the man page's lines: load into v2, then self time per function
  env <- new.env()
  env$dir <- dir
  for (e in man_lines) man_self <- eval(e, env)
  v2 <- env$v2
  # --- keys: row k of a table has id k
  for (t in c("sources", "samples", "locations", "functions")) {
    id <- v2[[t]][[sub("s$", "_id", t)]]
    if (!identical(as.numeric(id), as.numeric(seq_len(nrow(v2[[t]])))))
      return(paste(t, ": ids are not the row numbers"))
  }
  # (R's type.convert reads a value column holding only "2.0" as the number 2)
  if (v2$meta$key[1] != "version" || !as.character(v2$meta$value[1]) %in% c("2.0", "2"))
    return("meta.tsv does not start with version 2.0")
  # weight of each sample: count x its source's interval, in seconds
  cnt <- v2$sample_values[v2$sample_values$type == "samples", ]
  secs <- numeric(nrow(v2$samples))
  secs[cnt$sample_id] <- cnt$value
  secs <- secs * v2$sources$interval_us[v2$samples$source_id] / 1e6
  sl <- v2$sample_locations
  sl$name <- v2$functions$name[v2$locations$function_id[sl$location_id]]
  sl <- sl[!is.na(sl$name), ]   # position-only rows (Rprof's trailing F#L)
  leaf <- sl[sl$depth == 1, ]
  self <- tapply(secs[leaf$sample_id], leaf$name, sum)
  if (!isTRUE(all.equal(as.vector(man_self[names(self)]), as.vector(self), tolerance = 1e-12)) ||
      length(man_self) != length(self))
    return("the man page's self-time example disagrees with this script's")
  once <- unique(sl[, c("sample_id", "name")])  # recursion counts once
  total <- tapply(secs[once$sample_id], once$name, sum)

  ours <- read.delim(ours_file, quote = "", stringsAsFactors = FALSE)
  # folded stacks are untimed: their measure is samples, and the tables give
  # them an interval of 1 s, so R's times are the same counts
  if (is.null(ours$self.time) && !is.null(ours$self.samples)) {
    ours$self.time <- ours$self.samples
    ours$total.time <- ours$total.samples
  }
  bad <- character(0)
  if (!setequal(names(total), ours$name))
    bad <- c(bad, sprintf("function sets differ: R-only %s; ours-only %s",
                          paste(head(setdiff(names(total), ours$name), 3), collapse = ","),
                          paste(head(setdiff(ours$name, names(total)), 3), collapse = ",")))
  s <- self[ours$name]
  s[is.na(s)] <- 0
  close <- function(a, b) abs(a - b) <= 1e-9 * pmax(1, abs(b))
  k <- which(!close(s, ours$self.time))
  if (length(k)) bad <- c(bad, sprintf("self.time of '%s': R %.15g, stackscope %.15g",
                                       ours$name[k[1]], s[k[1]], ours$self.time[k[1]]))
  k <- which(!close(total[ours$name], ours$total.time))
  if (length(k)) bad <- c(bad, sprintf("total.time of '%s': R %.15g, stackscope %.15g",
                                       ours$name[k[1]], total[ours$name][k[1]], ours$total.time[k[1]]))
  if (length(bad)) paste(bad, collapse = " | ") else nrow(ours)
}

failed <- 0L
for (i in seq_len(nrow(jobs))) {
  r <- tryCatch(check(jobs$dir[i], jobs$ours[i]), error = function(e) paste("R error:", conditionMessage(e)))
  if (is.character(r)) {
    failed <- failed + 1L
    cat("FAIL ", jobs$label[i], ": ", r, "\n", sep = "")
  } else {
    cat("PASS ", jobs$label[i], " (", r, " functions)\n", sep = "")
  }
}
quit(status = if (failed) 1L else 0L)
