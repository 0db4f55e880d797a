// Package fidelity compares the simulator with ground truth recorded from real
// PyTorch by the oracle harness (shared/oracle/harness.py): standard output
// byte for byte, the escaped error, every per-line trace row, and the final
// peaks and counters.
//
// A case directory holds cases/NAME.py and golden/NAME.json. A case's first
// line may be "# env: NAME=VALUE", which the harness sets for the run; the
// simulator gets the same variable.
package fidelity
