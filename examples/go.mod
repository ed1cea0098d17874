module github.com/occkit/occkit/examples

go 1.26

replace (
	github.com/occkit/occkit => ..
	github.com/occkit/occkit/drivers/kubernetes => ../drivers/kubernetes
)
