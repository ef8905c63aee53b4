/// The trained leaves' fields on their experiments' whole grids, for analyses that need
/// more than the measurements (bench/weak_form_reference.py). For a trained run it writes
/// OUT.h5 with
///   x [n], t [T]                    the training set's grid (DATA.h5, set "train");
///   v [L, T, n, K + 1]              each leaf's u, u_x, ..., d^K u/dx^K on it;
///   u_t [L, T, n]                   each leaf's time derivative on it.
/// The leaves come from the run's checkpoints (nothing is trained when they are complete).
///
/// Usage: leaf_fields RUN_DIR OUT.h5 [DATA.h5 = RUN_DIR/data.h5]

#include <ATen/ATen.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/process_setup.h"
#include "io/atomic_file.h"
#include "io/hdf5_tensor.h"
#include "model/root_data.h"
#include "trained_run.h"

using namespace bhpm;

namespace {

/// The data of `measured` with every leaf's points replaced by the whole grid [T n].
model::LeafData whole_grids(const model::LeafData& measured, const pde::ExperimentSet& set) {
  const std::int64_t leaves = measured.x.size(0);
  const std::vector<at::Tensor> mesh = at::meshgrid({set.t, set.x}, "ij");
  model::LeafData grid = measured;
  grid.t = mesh[0].reshape({1, -1}).expand({leaves, -1}).contiguous();
  grid.x = mesh[1].reshape({1, -1}).expand({leaves, -1}).contiguous();
  grid.u = at::zeros_like(grid.x);
  return grid;
}

/// x, t, v [L, T, n, K + 1] and u_t [L, T, n] into `file`.
void write_fields(const io::Hdf5Location& file, const pde::ExperimentSet& set,
                  const model::RootData& rows, std::int64_t leaves, int order) {
  const std::int64_t times = set.t.size(0), n = set.x.size(0);
  io::write_tensor(file, "x", set.x, {"x", "", "training grid"});
  io::write_tensor(file, "t", set.t, {"t", "", "training output times"});
  io::write_tensor(file, "v", rows.inputs.view({leaves, times, n, order + 1}),
                   {"leaf,t,x,derivative", "", "each leaf's u, u_x, .. on the grid"});
  io::write_tensor(file, "u_t", rows.targets.view({leaves, times, n}),
                   {"leaf,t,x", "", "each leaf's time derivative on the grid"});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: leaf_fields RUN_DIR OUT.h5 [DATA.h5]\n");
    return 2;
  }
  cli::configure_process();
  cli::use_threads(0);
  const std::string run_dir = argv[1], output = argv[2];
  const std::string data_path = argc > 3 ? argv[3] : run_dir + "/data.h5";

  const bench::TrainedRun run = bench::load_trained_run(run_dir, data_path);
  const pde::ExperimentSet& set = run.set;
  const std::int64_t leaves = set.sample_u.size(0);
  const int order = run.trained.model->order();

  const model::RootData rows =
      model::root_data_detached(run.trained.model->leaves(), whole_grids(run.data, set), order);
  io::AtomicFile atomic(output);  // a failed run leaves no half-written file to be reused
  {
    const io::Hdf5Location file = io::Hdf5Location::create_file(atomic.temporary_path());
    write_fields(file, set, rows, leaves, order);
  }
  atomic.commit();
  std::printf("wrote %s: %lld leaves on %lld x %lld grids, order %d\n", output.c_str(),
              static_cast<long long>(leaves), static_cast<long long>(set.t.size(0)),
              static_cast<long long>(set.x.size(0)), order);
  return 0;
}
