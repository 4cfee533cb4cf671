//go:build enumtypo

// Built only by goPlugin.test.ts (`go build -tags enumtypo`), which expects it to fail: a typo in an enum value of
// the generated SDK is a compile error ("undefined: svc.HashTypeSHA265"), the valid constants being HashTypeSHA1,
// HashTypeSHA256, HashTypeSHA512 and HashTypeMD5.
package main

import "github.com/pulumi-svc/pulumi-svc/sdk/go/svc"

var _ = svc.HashTypeSHA265
