#pragma once
/// The explicitly treated part N(u, u_x, ..., d^K u/dx^K) of u_t = L u + N.
///
/// Implementations: the advection term -u u_x shared by Burgers, KdV and
/// Kuramoto-Sivashinsky, and an expression read from configuration. Later stages plug
/// in sampled operators through the same interface. A term that also evaluates plain arrays
/// (evaluates_values) is stepped on the CPU without tensors (pde/plain_periodic_solve.h).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace bhpm::pde {

class Expression;

class NonlinearTerm {
 public:
  virtual ~NonlinearTerm() = default;
  /// Highest x-derivative K the term reads.
  virtual int max_derivative() const = 0;
  /// derivatives [K+1, B, n] (u, u_x, ..., physical space) -> N [B, n].
  virtual at::Tensor evaluate(const at::Tensor& derivatives) const = 0;
  /// N at time t, for terms that change in time: t a double scalar (0-dim, one time for the
  /// batch) or [B, 1] (member b at t[b]); by default evaluate(derivatives).
  virtual at::Tensor evaluate_at(const at::Tensor& derivatives, const at::Tensor& /*t*/) const {
    return evaluate(derivatives);
  }
  /// The term of batch members `members` [k] (int64, distinct, in [0, B)) alone, for a
  /// batch of those k members in that order; null when the term treats every member alike
  /// (it then serves any batch as it is). By default null.
  virtual std::shared_ptr<const NonlinearTerm> select_members(const at::Tensor& /*members*/) const {
    return nullptr;
  }
  /// Whether evaluate_values is implemented. By default false.
  virtual bool evaluates_values() const { return false; }
  /// N of batch member `member` at `points` values and time t: derivatives [K+1, points]
  /// row-major (row m: d^m u/dx^m), out [points]; a term that treats every member alike
  /// ignores `member`. Safe to call from several threads at once. By default throws
  /// std::logic_error (see evaluates_values).
  virtual void evaluate_values(std::int64_t member, const double* derivatives, std::int64_t points,
                               double t, double* out) const;
  /// Human-readable form, e.g. "-u*u_x".
  virtual std::string describe() const = 0;
};

/// N = -u u_x.
class AdvectionTerm final : public NonlinearTerm {
 public:
  int max_derivative() const override { return 1; }
  at::Tensor evaluate(const at::Tensor& derivatives) const override;
  bool evaluates_values() const override { return true; }
  void evaluate_values(std::int64_t member, const double* derivatives, std::int64_t points,
                       double t, double* out) const override;
  std::string describe() const override { return "-u*u_x"; }
};

/// N given by an expression in u, u_x, u_xx, ... (names from derivative_name()).
class ExpressionTerm final : public NonlinearTerm {
 public:
  /// Throws ExpressionError naming `field` if `text` does not parse or uses a variable
  /// other than u, u_x, ..., up to kMaxDerivative.
  ExpressionTerm(const std::string& text, const std::string& field);
  ~ExpressionTerm() override;
  int max_derivative() const override { return max_derivative_; }
  at::Tensor evaluate(const at::Tensor& derivatives) const override;
  bool evaluates_values() const override { return true; }
  /// One evaluation at a time (the parser's variables are shared).
  void evaluate_values(std::int64_t member, const double* derivatives, std::int64_t points,
                       double t, double* out) const override;
  std::string describe() const override;

  static constexpr int kMaxDerivative = 6;

 private:
  std::unique_ptr<Expression> expression_;
  mutable std::mutex evaluating_;
  int max_derivative_ = 0;
};

/// "u", "u_x", "u_xx", ... for order 0, 1, 2, ...
std::string derivative_name(int order);

}  // namespace bhpm::pde
