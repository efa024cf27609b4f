module stackscope.test/measures

go 1.19
