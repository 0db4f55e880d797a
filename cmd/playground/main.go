// Command playground is the GPU Memory Playground's one binary:
//
//	playground serve [--addr :8080]            serve the browser playground
//	playground run [flags] SCRIPT.py           simulate a script, print its output
//	playground fidelity DIR...                 compare the simulator with recorded PyTorch traces
//	playground version                         print the simulator version
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gpumem/playground/sim"
)

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch runs one subcommand and returns the process exit status.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "version":
		fmt.Fprintf(stdout, "playground %s\n", sim.Version)
		return 0
	case "serve":
		if err := serveCmd(args[1:]); err != nil {
			fmt.Fprintf(stderr, "playground: %v\n", err)
			return 1
		}
		return 0
	case "run":
		return runCmd(args[1:], stdout, stderr)
	case "fidelity":
		return fidelityCmd(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "playground: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  playground serve [--addr :8080]        serve the browser playground
  playground run [flags] SCRIPT.py       simulate a script and print its output
  playground fidelity DIR...             compare the simulator with recorded PyTorch traces
  playground version                     print the simulator version
`)
}
