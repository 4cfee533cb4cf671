module pulumi-svc/engine/yaml-host

go 1.26

require github.com/pulumi/pulumi-yaml v1.25.0
