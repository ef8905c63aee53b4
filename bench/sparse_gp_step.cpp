/// Time of one training step of the sparse GP root (gp/sparse_variational_gp.h): ELBO
/// forward + backward with respect to every parameter (kernel, mean, likelihood,
/// inducing inputs, q(u)) at 4096 points, 128 inducing inputs and 3-D inputs
/// (v = (u, u_x, u_xx), K = 2), double precision, at 1 and 2 ATen threads. Each figure
/// is the median of several repetitions after warm-up; gradients are set to none before
/// each step. Figure lines (bench/figure_line.h): the step at each thread count, with the
/// -ELBO it computed.
///
/// Usage: sparse_gp_step [repetitions=21]

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/process_setup.h"
#include "figure_line.h"
#include "gp/gaussian_likelihood.h"
#include "gp/kmeans.h"
#include "gp/linear_mean.h"
#include "gp/rbf_kernel.h"
#include "gp/sparse_variational_gp.h"
#include "util/stopwatch.h"

using namespace bhpm::gp;

namespace {

constexpr std::int64_t kPoints = 4096;
constexpr std::int64_t kInducing = 128;
constexpr std::int64_t kDimensions = 3;

struct Problem {
  SparseVariationalGp gp{nullptr};
  at::Tensor x, y;
  double loss = 0;  ///< -ELBO of the last step, read after its time is taken
};

/// Burgers-like data: v ~ N(0, I), y = 0.1 v_2 - v_0 v_1 + noise; Z = k-means centres.
Problem make_problem() {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(5);
  Problem p;
  p.x = at::normal(0.0, 1.0, {kPoints, kDimensions}, gen, at::kDouble);
  p.y = 0.1 * p.x.select(1, 2) - p.x.select(1, 0) * p.x.select(1, 1) +
        0.01 * at::normal(0.0, 1.0, {kPoints}, gen, at::kDouble);
  RbfKernelOptions kernel_options;
  kernel_options.dimensions = kDimensions;
  KMeansOptions kmeans_options;
  kmeans_options.clusters = kInducing;
  p.gp = SparseVariationalGp(LinearMean(LinearMeanOptions{kDimensions}).ptr(),
                             RbfKernel(kernel_options).ptr(), GaussianLikelihood().ptr(),
                             kmeans(p.x, kmeans_options));
  return p;
}

double step_ms(Problem& p) {
  const bhpm::util::Stopwatch stopwatch;
  p.gp->zero_grad(/*set_to_none=*/true);
  const at::Tensor loss = -p.gp->elbo(p.x, p.y, kPoints);
  loss.backward();
  const double ms = 1e3 * stopwatch.seconds();
  p.loss = loss.item<double>();
  return ms;
}

double median_ms(Problem& p, int repetitions) {
  for (int i = 0; i < 3; ++i) step_ms(p);  // warm-up
  std::vector<double> times;
  for (int i = 0; i < repetitions; ++i) times.push_back(step_ms(p));
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  bhpm::cli::configure_process();
  mallopt(M_MMAP_MAX, 0);  // as bhpm's process setup: keep freed tensors' pages
  mallopt(M_TRIM_THRESHOLD, -1);
  const int repetitions = argc > 1 ? std::max(1, std::stoi(argv[1])) : 21;
  std::printf(
      "ATen threads at start-up: %d; ELBO forward + backward, %lld points, %lld "
      "inducing, D = %lld, double; median of %d steps\n\n",
      at::get_num_threads(), static_cast<long long>(kPoints), static_cast<long long>(kInducing),
      static_cast<long long>(kDimensions), repetitions);
  Problem p = make_problem();
  std::printf("%8s %12s\n", "threads", "step ms");
  for (int threads : {1, 2}) {
    at::set_num_threads(threads);
    const double ms = median_ms(p, repetitions);
    std::printf("%8d %12.2f\n", threads, ms);
    bhpm::bench::print_figure(
        bhpm::bench::formatted("sparse GP ELBO step, %lld points, %lld inducing, %s",
                               static_cast<long long>(kPoints), static_cast<long long>(kInducing),
                               bhpm::bench::threads(threads).c_str()),
        ms, "ms", bhpm::bench::formatted("-ELBO %.6g", p.loss),
        bhpm::bench::formatted("D = %lld, forward + backward, median of %d",
                               static_cast<long long>(kDimensions), repetitions));
  }
  return 0;
}
