library(testthat)
library(stackscope)

test_check("stackscope")
