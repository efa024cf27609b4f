module verdictbench

go 1.19
