module ${PROJECT}

go 1.22

require (
	github.com/pulumi-svc/pulumi-svc/sdk/go v0.1.0
	github.com/pulumi/pulumi/sdk/v3 v3.274.1
)
