/// Time of one training step of the leaves (forward + backward of a loss of u, u_x, ...,
/// d^K u/dx^K and u_t, K = 3, default 6 x 64 sine MLP, hidden layers in double and in
/// float32, nn/sine_mlp.h): Taylor-mode (nn/taylor_forward.h) against nested reverse-mode
/// autograd, at 1 and 2 ATen threads.
/// Loss = mean of the squares of all outputs; parameter gradients are set to none before
/// each step. Each figure is the median of several repetitions after warm-up.
///
/// Usage: leaf_step [repetitions=9] [threads=1,2]
///
/// The process is set up as bhpm's (cli/process_setup.h: OpenBLAS on one thread, so a
/// single leaf's products run on one core whatever the ATen threads; several leaves'
/// products are spread over the ATen threads by the batched product). The machine's
/// 1-minute load average is printed first: on a shared 2-core machine the 2-thread rows
/// are only meaningful when it is well below 1. Figure lines (bench/figure_line.h): each
/// row's Taylor-mode step, with the loss it computed (nested autograd's in the note): the
/// two precisions' losses differ by float32's rounding, about 1e-7 relative.

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cli/process_setup.h"
#include "figure_line.h"
#include "load_average.h"
#include "nn/sine_mlp.h"
#include "nn/taylor_forward.h"
#include "util/stopwatch.h"

using namespace bhpm::nn;

namespace {

constexpr int kOrder = 3;

struct Problem {
  SineMlp net{nullptr};
  at::Tensor x, t;
  std::vector<DomainBox> boxes;
  double loss = 0;  ///< the loss of the last step, read after its time is taken
};

/// L leaves on the Burgers box [-8, 8] x [0, 10] (leaf i shifted by i), P random points.
Problem make_problem(std::int64_t leaves, std::int64_t points, const std::string& precision) {
  Problem p;
  SineMlpOptions options;
  options.leaves = leaves;
  options.precision = precision;
  options.seed = 7;
  p.net = SineMlp(options);
  for (std::int64_t i = 0; i < leaves; ++i) p.boxes.push_back({-8.0 + i, 8.0 + i, 0.0, 10.0 + i});
  auto gen = at::make_generator<at::CPUGeneratorImpl>(11);
  p.x = at::empty({leaves, points}, at::kDouble).uniform_(-8.0, 8.0, gen);
  p.t = at::empty({leaves, points}, at::kDouble).uniform_(0.0, 10.0, gen);
  return p;
}

using Forward = std::function<LeafDerivatives(const Problem&)>;

double step_ms(Problem& p, const Forward& forward) {
  const bhpm::util::Stopwatch stopwatch;
  p.net->zero_grad(/*set_to_none=*/true);
  const LeafDerivatives d = forward(p);
  const at::Tensor loss = (d.u_x_derivatives.square().sum() + d.u_t.square().sum()) /
                          static_cast<double>(d.u_x_derivatives.numel() + d.u_t.numel());
  loss.backward();
  const double ms = 1e3 * stopwatch.seconds();
  p.loss = loss.item<double>();
  return ms;
}

double median_ms(Problem& p, const Forward& forward, int repetitions) {
  for (int i = 0; i < 2; ++i) step_ms(p, forward);  // warm-up
  std::vector<double> times;
  for (int i = 0; i < repetitions; ++i) times.push_back(step_ms(p, forward));
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

const Forward kTaylor = [](const Problem& p) {
  return taylor_forward(*p.net, p.x, p.t, p.boxes, kOrder);
};
const Forward kNested = [](const Problem& p) {
  return nested_autograd_derivatives(*p.net, p.x, p.t, p.boxes, kOrder);
};

void row(std::int64_t leaves, std::int64_t points, const std::string& precision, int repetitions) {
  Problem p = make_problem(leaves, points, precision);
  const double taylor = median_ms(p, kTaylor, repetitions);
  const double taylor_loss = p.loss;
  const double nested = median_ms(p, kNested, repetitions);
  std::printf("%8d %8lld %8lld %9s %12.1f %12.1f %8.2f\n", at::get_num_threads(),
              static_cast<long long>(leaves), static_cast<long long>(points), precision.c_str(),
              taylor, nested, nested / taylor);
  bhpm::bench::print_figure(
      bhpm::bench::formatted("leaf step, Taylor mode, %lld %s x %lld points, %s, %s",
                             static_cast<long long>(leaves), leaves == 1 ? "leaf" : "leaves",
                             static_cast<long long>(points), precision.c_str(),
                             bhpm::bench::threads(at::get_num_threads()).c_str()),
      taylor, "ms", bhpm::bench::formatted("loss %.6g", taylor_loss),
      bhpm::bench::formatted("K = %d, forward + backward, median of %d; nested autograd %.1f ms "
                             "(x %.2f, loss %.6g)",
                             kOrder, repetitions, nested, nested / taylor, p.loss));
}

}  // namespace

int main(int argc, char** argv) {
  bhpm::cli::configure_process();  // as every bhpm executable (malloc, OpenBLAS threads)
  const int repetitions = argc > 1 ? std::stoi(argv[1]) : 9;
  const std::string thread_list = argc > 2 ? argv[2] : "1,2";
  std::printf(
      "ATen threads at start-up: %d; load average %.2f; K = %d, 6 x 64 sine MLP; "
      "median of %d steps (forward + backward)\n\n",
      at::get_num_threads(), bhpm::bench::load_average(), kOrder, repetitions);
  std::printf("%8s %8s %8s %9s %12s %12s %8s\n", "threads", "leaves", "points", "precision",
              "taylor ms", "nested ms", "ratio");
  for (std::size_t begin = 0; begin < thread_list.size();) {
    const std::size_t end = std::min(thread_list.find(',', begin), thread_list.size());
    at::set_num_threads(std::stoi(thread_list.substr(begin, end - begin)));
    begin = end + 1;
    for (const std::string& precision : precision_names()) {
      row(1, 1024, precision, repetitions);
      row(1, 8192, precision, std::max(3, repetitions / 2));
      row(4, 1024, precision, repetitions);
    }
  }
  return 0;
}
