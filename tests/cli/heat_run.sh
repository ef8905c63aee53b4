# Sourced after common.sh by the CLI tests that need a small run. write_heat_config FILE
# writes the heat equation's small configuration (2 training and 2 test experiments: a few
# seconds of training give a root whose operator samples stay bounded, which a few seconds
# on Burgers do not); tests change it with --set. Its leaves compute in double: tests use
# features of this very training (predict_cli_test.sh: experiment 1's window, where the
# posterior mean diffuses backwards), which float32 rounding moves; float32 leaves are
# tested in tests/nn and end to end. train_heat_run writes $work/run.toml,
# simulates $work/data.h5 and trains $work/run; it checks the training.
write_heat_config() {  # write_heat_config FILE
  cat > "$1" <<'TOML'
seed = 5
[equation]
name = "heat"
[domain]
t_end = 1.0
[solver]
modes = 32
output_dt = 0.1
[data]
train_experiments = 2
test_experiments = 2
n_st = 256
[leaves]
width = 16
hidden_layers = 2
precision = "float64"
[train_leaves]
iterations = 1000
learning_rate = 3e-3
final_learning_rate = 1e-4
[root]
inducing_points = 16
[train_root]
iterations = 100
points = 128
[train_joint]
iterations = 200
batch_size = 64
[predict]
samples = 4
max_rounds = 3
TOML
}

train_heat_run() {
  write_heat_config "$work/run.toml"
  "$bhpm" simulate "$work/run.toml" -o "$work/data.h5" -q >/dev/null 2>&1
  "$bhpm" train "$work/run.toml" --data "$work/data.h5" -o "$work/run" -q >/dev/null 2>&1
  check "train a small run" $?
}
