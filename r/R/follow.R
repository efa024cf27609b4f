# follow(): profile this R session into a file, and the command that
# follows it live in another terminal (stackscope --follow).

follow <- function(file = "Rprof.out", interval = 0.02, memory = TRUE,
                   lines = TRUE, gc = FALSE, window = NULL,
                   transforms = NULL, base = NULL, args = character()) {
  if (!is.character(file) || length(file) != 1L || is.na(file) || !nzchar(file))
    stop("'file' must be one file name", call. = FALSE)
  if (!is.null(window) &&
      (!is.character(window) || length(window) != 1L || !grepl("^[0-9.]+[a-z]*$", window)))
    stop("'window' must be one duration, such as \"10s\" or \"500ms\"", call. = FALSE)
  file <- path.expand(file)
  utils::Rprof(file, interval = interval, memory.profiling = memory,
               line.profiling = lines, gc.profiling = gc)
  file <- normalizePath(file)
  cmd <- c("--follow", if (!is.null(window)) c("--window", window),
           transform_args(transforms), base_args(base), args, file)
  line <- command_line(cmd)
  message("Profiling this R session into ", file, " (Rprof(NULL) stops it).\n",
          "Follow it in another terminal as it runs:\n  ", line)
  invisible(line)
}
