#!/usr/bin/env bash
# End to end on KdV u_t = -u u_x - u_xxx (configs/kdv-quick.toml: N = 4, K = 3,
# epsilon = 0, reduced schedule). Bounds as in e2e_burgers_test.sh.
source "$(dirname "$0")/e2e_common.sh"
e2e_run kdv-quick.toml
e2e_expect train "relative_rmse<0.4" "coverage_95>0.8"
e2e_expect held-out "relative_rmse<0.6" "coverage_95>0.8"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
