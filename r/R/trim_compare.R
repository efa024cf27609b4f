# trim() and compare(): the transform list and the comparison of two
# profiles, as data frames.

trim <- function(x, transforms, output = NULL, force = FALSE) {
  files <- profile_files(x)
  tf <- transform_args(transforms)
  if (!length(tf)) stop("no transforms given", call. = FALSE)
  if (!is.null(output)) {
    if (!is.character(output) || length(output) != 1L || is.na(output))
      stop("'output' must be one file name", call. = FALSE)
    out <- run_stackscope(c("convert", tf, if (isTRUE(force)) "--force",
                            "-o", path.expand(output), files))
    unlink(out)
  }
  df <- report_tsv(c("--by", "transforms", tf, files))
  if (!is.null(output)) attr(df, "output") <- path.expand(output)
  df
}

compare <- function(base, new, by = "self", transforms = NULL, value = NULL,
                    normalize = FALSE, args = character()) {
  report_tsv(c("--by", by, base_args(base), transform_args(transforms),
               if (!is.null(value)) c("--value", value),
               if (isTRUE(normalize)) "--normalize", args,
               profile_files(new, "new")))
}
