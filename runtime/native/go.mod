module rt/native

go 1.19
