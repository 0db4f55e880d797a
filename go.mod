module github.com/gpumem/playground

go 1.26
