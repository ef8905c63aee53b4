#include "solve/pinn_solver.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>
#include <torch/optim/adam.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "nn/taylor_forward.h"
#include "pde/boundary_elimination.h"
#include "util/learning_rate_schedule.h"
#include "util/number_format.h"
#include "util/option_check.h"
#include "util/random.h"
#include "util/tensor_checks.h"

namespace bhpm::solve {

namespace {

const auto kReal = at::TensorOptions().dtype(at::kDouble);

/// Points per output evaluation chunk (per member), bounding its memory.
constexpr std::int64_t kOutputChunkPoints = 1 << 16;

/// K from the samples' input dimension D = K + 1; checks S >= 1 and 1 <= K <= kMaxOrder.
int derivative_order(const gp::FunctionSamples& samples) {
  if (samples.count() < 1)
    throw std::invalid_argument("PINN: the operator samples must hold S >= 1 functions (got S = " +
                                std::to_string(samples.count()) + ")");
  const std::int64_t order = samples.dimensions() - 1;
  if (order < 1 || order > nn::kMaxOrder)
    throw std::invalid_argument(
        "PINN: the operator samples' input dimension D = K + 1 (v = u, u_x, ..., d^K u/dx^K) "
        "needs K in [1, " +
        std::to_string(nn::kMaxOrder) + "] (got D = " + std::to_string(samples.dimensions()) + ")");
  return static_cast<int>(order);
}

/// Throws unless every condition is of a derivative order below K (the Taylor pass's
/// highest is K, and a condition of order K would leave the leading term without one).
void check_conditions(const PinnDomain& domain, int order) {
  if (!domain.interval) return;
  const auto check_end = [order](const std::vector<pde::BoundaryCondition>& end,
                                 const std::string& name) {
    for (const pde::BoundaryCondition& condition : end)
      if (condition.order() >= order)
        throw std::invalid_argument("PINN: the condition " + condition.describe() + " at the " +
                                    name + " end is of derivative order " +
                                    std::to_string(condition.order()) +
                                    "; an operator of order K = " + std::to_string(order) +
                                    " takes conditions of order below K");
  };
  check_end(domain.conditions.left, "left");
  check_end(domain.conditions.right, "right");
}

void check_problem(const PinnProblem& problem, int order) {
  const std::int64_t n = problem.domain.x.size(0);
  const at::Tensor& u0 = problem.u0;
  if (!u0.defined() || u0.dim() != 1 || u0.size(0) != n || !u0.is_floating_point())
    throw std::invalid_argument("PINN: u0 must be a real [n] tensor with n = grid points = " +
                                std::to_string(n) + " (got " + util::describe_tensor(u0) + ")");
  if (!at::isfinite(u0).all().item<bool>()) throw std::invalid_argument("PINN: u0 must be finite");
  const at::Tensor& t = problem.t;
  if (!t.defined() || t.dim() != 1 || t.size(0) < 2 || !t.is_floating_point())
    throw std::invalid_argument("PINN: t must be a real [T] tensor with T >= 2 output times (got " +
                                util::describe_tensor(t) + ")");
  if (!at::isfinite(t).all().item<bool>()) throw std::invalid_argument("PINN: t must be finite");
  if (t[0].item<double>() != 0.0)
    throw std::invalid_argument("PINN: t[0] must be 0, the time of u0 (got " +
                                util::format_significant(t[0].item<double>(), 6) + ")");
  const at::Tensor steps = t.narrow(0, 1, t.size(0) - 1) - t.narrow(0, 0, t.size(0) - 1);
  if (!(steps > 0).all().item<bool>()) {
    const std::int64_t i = (steps <= 0).nonzero()[0][0].item<std::int64_t>() + 1;
    throw std::invalid_argument("PINN: t must be strictly increasing (got t[" + std::to_string(i) +
                                "] = " + util::format_significant(t[i].item<double>(), 6) +
                                " after " + util::format_significant(t[i - 1].item<double>(), 6) +
                                ")");
  }
  check_conditions(problem.domain, order);
}

/// Batch sizes of one iteration; the columns of a member's points are, in order,
/// collocation [n_c], boundary at x_min [n_b], boundary at x_max [n_b], initial [n_0].
struct Layout {
  std::int64_t collocation, boundary, initial;
  std::int64_t boundary_start() const { return collocation; }
  std::int64_t initial_start() const { return collocation + 2 * boundary; }
};

/// The points of one iteration, [S, n_c + 2 n_b + n_0], u0 at the initial ones [S, n_0],
/// and on an interval each condition's g at the boundary times, [S, C, n_b] per end.
struct PointBatch {
  at::Tensor x, t, u0;
  at::Tensor left_values, right_values;
};

/// Initial points x_l [n_0] and u0 there: random grid points of a periodic (uniform) grid;
/// uniform in [x_min, x_max] on an interval, u0 interpolated from the Chebyshev points.
std::pair<at::Tensor, at::Tensor> initial_points(const PinnDomain& domain, const at::Tensor& u0,
                                                 util::Rng& rng, std::int64_t count) {
  if (domain.interval) {
    const at::Tensor x =
        domain.x_min + (domain.x_max - domain.x_min) * util::uniform_tensor(rng, {count});
    return {x, at::mv(domain.interval->interpolation_matrix(x), u0)};
  }
  std::vector<std::int64_t> indices(count);
  const auto n = static_cast<std::uint64_t>(domain.x.size(0));
  for (std::int64_t& index : indices) index = static_cast<std::int64_t>(rng.below(n));
  const at::Tensor index = at::tensor(indices, at::kLong);
  return {domain.x.index({index}), u0.index({index})};
}

/// Member s's points at `iteration` come from derive_seed(member_seeds[s], "pinn_points",
/// iteration) alone.
PointBatch draw_points(const PinnProblem& problem, const at::Tensor& u0, double t_end,
                       const Layout& layout, const std::vector<std::uint64_t>& member_seeds,
                       std::int64_t iteration) {
  const PinnDomain& domain = problem.domain;
  const double length = domain.x_max - domain.x_min;
  std::vector<at::Tensor> xs, ts, targets, left, right;
  for (const std::uint64_t member_seed : member_seeds) {
    util::Rng rng(
        util::derive_seed(member_seed, "pinn_points", static_cast<std::uint64_t>(iteration)));
    const at::Tensor x_c = domain.x_min + length * util::uniform_tensor(rng, {layout.collocation});
    const at::Tensor t_c = t_end * util::uniform_tensor(rng, {layout.collocation});
    const at::Tensor t_b = t_end * util::uniform_tensor(rng, {layout.boundary});
    const auto [x_0, u_0] = initial_points(domain, u0, rng, layout.initial);
    xs.push_back(at::cat({x_c, at::full({layout.boundary}, domain.x_min, kReal),
                          at::full({layout.boundary}, domain.x_max, kReal), x_0}));
    ts.push_back(at::cat({t_c, t_b, t_b, at::zeros({layout.initial}, kReal)}));
    targets.push_back(u_0);
    if (domain.interval) {
      left.push_back(pde::condition_data(domain.conditions.left, t_b));
      right.push_back(pde::condition_data(domain.conditions.right, t_b));
    }
  }
  PointBatch batch{at::stack(xs), at::stack(ts), at::stack(targets), {}, {}};
  if (domain.interval) {
    batch.left_values = at::stack(left);
    batch.right_values = at::stack(right);
  }
  return batch;
}

/// sum over the end's conditions of 1/n_b sum_j (sum_m w_m d^m u(end, t_j) - g(t_j))^2, [S];
/// `ends` [K+1, S, n_b] are the x-derivatives at the end, `values` [S, C, n_b] the g's.
at::Tensor condition_loss(const std::vector<pde::BoundaryCondition>& end, const at::Tensor& ends,
                          const at::Tensor& values) {
  at::Tensor loss = at::zeros({ends.size(1)}, kReal);
  for (std::size_t c = 0; c < end.size(); ++c) {
    at::Tensor combination = at::zeros_like(ends[0]);
    for (std::size_t m = 0; m < end[c].weights.size(); ++m)
      if (end[c].weights[m] != 0.0)
        combination = combination + end[c].weights[m] * ends[static_cast<std::int64_t>(m)];
    loss = loss + (combination - values.select(1, static_cast<std::int64_t>(c))).square().mean(1);
  }
  return loss;
}

/// The boundary term [S]: periodic differences of d^k u, k < K, or the conditions' residuals.
at::Tensor boundary_loss(const PinnDomain& domain, const at::Tensor& u, const PointBatch& batch,
                         const Layout& layout, int order) {
  const at::Tensor left = u.narrow(2, layout.boundary_start(), layout.boundary);
  const at::Tensor right = u.narrow(2, layout.boundary_start() + layout.boundary, layout.boundary);
  if (domain.interval)
    return condition_loss(domain.conditions.left, left, batch.left_values) +
           condition_loss(domain.conditions.right, right, batch.right_values);
  return (left.narrow(0, 0, order) - right.narrow(0, 0, order)).square().mean(2).sum(0);
}

/// Every member's loss terms [S] from one Taylor-mode pass over the batch (with graph);
/// the operator samples at the collocation points' own times.
PinnLoss member_losses(const PinnDomain& domain, const nn::LeafDerivatives& jet,
                       const PointBatch& batch, const gp::FunctionSamples& samples,
                       const Layout& layout, int order) {
  const at::Tensor& u = jet.u_x_derivatives;  // [K+1, S, P]
  const std::int64_t members = u.size(1);
  const at::Tensor v = u.narrow(2, 0, layout.collocation).permute({1, 2, 0}).contiguous();
  const at::Tensor f = samples.evaluate_at(v, batch.t.narrow(1, 0, layout.collocation));
  if (!f.defined() || f.dim() != 2 || f.size(0) != members || f.size(1) != layout.collocation)
    throw std::invalid_argument(
        "PINN: the operator samples' evaluate(v " + util::describe_tensor(v) +
        ") must return [S, P] = [" + std::to_string(members) + ", " +
        std::to_string(layout.collocation) + "] (got " + util::describe_tensor(f) + ")");
  PinnLoss loss;
  loss.residual = (jet.u_t.narrow(1, 0, layout.collocation) - f).square().mean(1);
  loss.boundary = boundary_loss(domain, u, batch, layout, order);
  loss.initial =
      (u[0].narrow(1, layout.initial_start(), layout.initial) - batch.u0).square().mean(1);
  loss.total = loss.residual + loss.boundary + loss.initial;
  return loss;
}

PinnLoss detached(const PinnLoss& loss) {
  return {loss.total.detach(), loss.residual.detach(), loss.boundary.detach(),
          loss.initial.detach()};
}

/// Which members are still sound, and why the others failed.
class MemberHealth {
 public:
  explicit MemberHealth(std::int64_t members)
      : sound_(at::ones({members}, at::kBool)), failures_(members) {}

  /// Marks every still-sound member with ok[s] false as failed with message(s).
  template <typename Message>
  void fail_unless(const at::Tensor& ok, const Message& message) {
    const at::Tensor newly_failed = sound_.logical_and(ok.logical_not());
    if (!newly_failed.any().item<bool>()) return;
    for (std::int64_t s = 0; s < sound_.size(0); ++s)
      if (newly_failed[s].item<bool>()) failures_[s] = message(s);
    sound_ = sound_.logical_and(ok);
  }

  const at::Tensor& sound() const { return sound_; }  ///< [S] bool
  bool any_sound() const { return sound_.any().item<bool>(); }
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  at::Tensor sound_;
  std::vector<std::string> failures_;
};

/// [S] bool: every gradient entry of member s is finite (parameters are [S, ...]).
at::Tensor finite_gradients(const std::vector<at::Tensor>& parameters, std::int64_t members) {
  at::Tensor finite = at::ones({members}, at::kBool);
  for (const at::Tensor& p : parameters)
    if (p.grad().defined()) finite = finite.logical_and(at::isfinite(p.grad()).flatten(1).all(1));
  return finite;
}

/// Zeroes the gradient slices of failed members, so Adam leaves the others untouched.
void zero_failed_gradients(const std::vector<at::Tensor>& parameters, const at::Tensor& sound) {
  const at::Tensor failed = sound.logical_not();
  for (const at::Tensor& p : parameters) {
    if (!p.grad().defined()) continue;
    std::vector<std::int64_t> shape(p.dim(), 1);
    shape[0] = failed.size(0);
    p.mutable_grad().masked_fill_(failed.view(shape), 0.0);
  }
}

/// Member s at every (t_i, x_j): [S, T, n], in chunks of times.
at::Tensor evaluate_on_grid(const nn::SineMlpImpl& net, const at::Tensor& grid_x,
                            const at::Tensor& times, const std::vector<nn::DomainBox>& boxes) {
  const at::NoGradGuard no_grad;
  const std::int64_t members = static_cast<std::int64_t>(boxes.size());
  const std::int64_t n = grid_x.size(0), count = times.size(0);
  const std::int64_t chunk = std::max<std::int64_t>(1, kOutputChunkPoints / n);
  std::vector<at::Tensor> rows;
  for (std::int64_t begin = 0; begin < count; begin += chunk) {
    const at::Tensor t = times.narrow(0, begin, std::min(chunk, count - begin));
    const at::Tensor x_points = grid_x.repeat({t.size(0)}).expand({members, -1});
    const at::Tensor t_points = t.repeat_interleave(n).expand({members, -1});
    rows.push_back(net.forward(x_points.contiguous(), t_points.contiguous(), boxes)
                       .view({members, t.size(0), n}));
  }
  return at::cat(rows, 1);
}

}  // namespace

PinnDomain PinnDomain::periodic(const pde::PeriodicGrid& grid) {
  return {grid.x_min(), grid.x_max(), grid.x(), std::nullopt, {}};
}

PinnDomain PinnDomain::bounded(const pde::ChebyshevGrid& grid, pde::BoundaryConditions conditions) {
  return {grid.a(), grid.b(), grid.x(), grid, std::move(conditions)};
}

void validate(const PinnOptions& options) {
  const std::string owner = "PINN";
  nn::SineMlpOptions network = options.network;
  network.leaves = 1;  // set by the solver
  util::validate_nested(owner, "network.", [&] { nn::validate(network); });
  util::require_at_least(options.iterations, 1, owner, "iterations");
  util::require_at_least(options.collocation_points, 1, owner, "collocation_points");
  util::require_at_least(options.boundary_points, 1, owner, "boundary_points");
  util::require_at_least(options.initial_points, 1, owner, "initial_points");
  util::require_positive(options.learning_rate, owner, "learning_rate");
  util::require_positive(options.final_learning_rate, owner, "final_learning_rate");
}

EnsembleSolution solve_pinn_ensemble(const PinnProblem& problem, const gp::FunctionSamples& samples,
                                     const PinnOptions& options, const PinnProgress& progress,
                                     std::int64_t report_every) {
  validate(options);
  util::require_at_least(report_every, 1, "PINN", "report_every");
  const int order = derivative_order(samples);
  check_problem(problem, order);
  const at::AutoGradMode training(true);  // callers may run under a NoGradGuard

  const std::int64_t members = samples.count();
  const at::Tensor times = problem.t.to(at::kDouble).contiguous();
  const at::Tensor u0 = problem.u0.to(at::kDouble).contiguous();
  const PinnDomain& domain = problem.domain;
  const at::Tensor grid_x = domain.x.to(at::kDouble).contiguous();
  const double t_end = times[-1].item<double>();
  const Layout layout{options.collocation_points, options.boundary_points, options.initial_points};

  nn::SineMlpOptions network_options = options.network;
  network_options.leaves = members;
  network_options.seed = util::derive_seed(options.seed, "pinn_network", 0);
  nn::SineMlp net(network_options);
  const std::vector<nn::DomainBox> boxes(members,
                                         nn::DomainBox{domain.x_min, domain.x_max, 0.0, t_end});
  std::vector<std::uint64_t> member_seeds;
  for (std::int64_t s = 0; s < members; ++s)
    member_seeds.push_back(
        util::derive_seed(options.seed, "pinn_member", static_cast<std::uint64_t>(s)));

  const std::vector<at::Tensor> parameters = net->parameters();
  torch::optim::Adam adam(parameters, torch::optim::AdamOptions(options.learning_rate));
  const util::LearningRateSchedule schedule{options.iterations, options.learning_rate,
                                            options.final_learning_rate};

  MemberHealth health(members);
  std::int64_t done = 0;
  while (done < options.iterations && health.any_sound()) {
    const PointBatch batch = draw_points(problem, u0, t_end, layout, member_seeds, done);
    const PinnLoss loss =
        member_losses(domain, nn::taylor_forward(*net, batch.x, batch.t, boxes, order), batch,
                      samples, layout, order);
    const PinnLoss values = detached(loss);
    const std::string step = std::to_string(done + 1);
    health.fail_unless(at::isfinite(values.total), [&](std::int64_t s) {
      return "PINN loss not finite at iteration " + step + " (residual " +
             util::format_significant(values.residual[s].item<double>(), 6) + ", boundary " +
             util::format_significant(values.boundary[s].item<double>(), 6) + ", initial " +
             util::format_significant(values.initial[s].item<double>(), 6) + ")";
    });
    if (!health.any_sound()) {
      ++done;
      if (progress) progress(done, values);
      break;
    }
    adam.zero_grad();
    at::where(health.sound(), loss.total, at::zeros_like(loss.total)).sum().backward();
    health.fail_unless(finite_gradients(parameters, members), [&](std::int64_t) {
      return "PINN gradient not finite at iteration " + step;
    });
    zero_failed_gradients(parameters, health.sound());
    for (auto& group : adam.param_groups())
      static_cast<torch::optim::AdamOptions&>(group.options())
          .lr(util::learning_rate_at(schedule, done));
    adam.step();
    ++done;
    if (progress && (done % report_every == 0 || done == options.iterations))
      progress(done, values);
  }

  EnsembleSolution solution;
  solution.x = grid_x;
  solution.t = times;
  solution.u = evaluate_on_grid(*net, grid_x, times, boxes);
  health.fail_unless(at::isfinite(solution.u).flatten(1).all(1), [&](std::int64_t) {
    return "PINN solution not finite on the output grid after " + std::to_string(done) +
           " iterations";
  });
  solution.diverged = health.sound().logical_not();
  solution.u.masked_fill_(solution.diverged.view({members, 1, 1}),
                          std::numeric_limits<double>::quiet_NaN());
  solution.failures = health.failures();
  return solution;
}

}  // namespace bhpm::solve
