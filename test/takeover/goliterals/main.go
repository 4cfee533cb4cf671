// Reads a Go file (on standard input) with Go's own scanner and prints, as JSON, the kind of every token (with
// identifiers and keywords by name, literals by kind) and the value of every string literal, unquoted: what
// test/takeover/takeoverLiterals.test.ts compares between programs of hostile and of plain values. Standard library
// only (`go run main.go < file.go`); a syntax error fails it.
package main

import (
	"encoding/json"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"strconv"
)

func main() {
	src, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fset := token.NewFileSet()
	if _, err := parser.ParseFile(fset, "program.go", src, parser.ParseComments|parser.AllErrors); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var s scanner.Scanner
	s.Init(fset.AddFile("program.go", -1, len(src)), src, nil, 0)
	tokens := []string{}
	strs := []string{}
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch {
		case tok == token.STRING:
			value, err := strconv.Unquote(lit)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			strs = append(strs, value)
			tokens = append(tokens, "STRING")
		case tok == token.IDENT || tok.IsKeyword():
			tokens = append(tokens, lit)
		case tok.IsLiteral():
			tokens = append(tokens, tok.String())
		default:
			tokens = append(tokens, tok.String())
		}
	}
	out, _ := json.Marshal(map[string]any{"tokens": tokens, "strings": strs})
	fmt.Println(string(out))
}
