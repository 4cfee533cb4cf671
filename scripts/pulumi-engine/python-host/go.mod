module pulumi-svc/engine/python-host

go 1.26

require github.com/pulumi/pulumi/sdk/v3 v3.68.0
