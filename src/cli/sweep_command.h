#pragma once
/// `bhpm sweep CONFIG.toml --vary section.key=v1,v2,... [--repeats R] -o DIR [--jobs P]
///             [--set section.key=value ...] [-q]`
///
/// The paper's Fig. 2 studies: how the learned operator's held-out accuracy changes with
/// one setting (data.n_st, data.noise, data.train_experiments, ...). Every value x repeat
/// is an independent `bhpm run` (stages simulate, train, evaluate; repeat r uses seed + r)
/// in DIR/<key>=<value>/repeat-<r>/, P of them at a time as child processes sharing the
/// cores; each member's output goes to its run.log. Then DIR holds sweep-members.csv (RMSE
/// and MNLP of every member, a field system's pooled over its fields), sweep-summary.csv and
/// sweep.txt (mean, standard deviation, min and max per value) and sweep.png. Every member's
/// configuration is checked before any starts; rerunning resumes each member like `bhpm run`. Under
/// `mpirun -n P` the members are spread over the ranks (rank r trains members r, r + P, ...) and
/// rank 0 writes the summary from the shared folder (cli/mpi_job.h, docs/parallel.md).

namespace CLI {
class App;
}

namespace bhpm::cli {

void setup_sweep(CLI::App& app);

}  // namespace bhpm::cli
