#pragma once
/// y' = f(t, y), y in R^n, integrated by SUNDIALS' CVODE with its BDF methods (orders 1 to
/// 5, chosen by CVODE), Newton iterations on a dense Jacobian that the caller supplies, and
/// steps chosen so that each step's estimated local error is within relative_tolerance
/// |y_i| + absolute_tolerance (weighted RMS <= 1). The bounded-domain solver's time stepping
/// (pde/bounded_solve.h; docs/boundary-conditions.md, "The method", says why BDF and not an
/// L-stable DIRK); SUNDIALS' headers stay in the .cpp.

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace bhpm::pde {

/// CVODE could not reach the requested time; the message carries CVODE's own and the time.
class IntegrationFailure : public std::runtime_error {
 public:
  IntegrationFailure(const std::string& message, double time)
      : std::runtime_error(message), time_(time) {}
  /// The time the integrator had reached.
  double time_reached() const { return time_; }

 private:
  double time_;
};

struct ImplicitIntegratorOptions {
  double relative_tolerance = 1e-8;
  double absolute_tolerance = 1e-10;
  std::int64_t max_steps = 100000;  ///< steps allowed per call of advance_to
};

class ImplicitIntegrator {
 public:
  /// f(t, y [n], ydot [n]): 0 when f was evaluated, > 0 when y is unsound there (CVODE
  /// retries with a smaller step).
  using RightHandSide = std::function<int(double t, const double* y, double* ydot)>;
  /// J = df/dy at (t, y), written column-major into jacobian [n * n]; 0, or > 0 as above.
  using Jacobian = std::function<int(double t, const double* y, double* jacobian)>;

  /// Starts at t0 from y0 [n]; throws std::invalid_argument for n < 1 or a non-positive
  /// tolerance.
  ImplicitIntegrator(std::int64_t n, double t0, const double* y0, RightHandSide f,
                     Jacobian jacobian, const ImplicitIntegratorOptions& options);
  ~ImplicitIntegrator();
  ImplicitIntegrator(const ImplicitIntegrator&) = delete;
  ImplicitIntegrator& operator=(const ImplicitIntegrator&) = delete;

  /// Integrates to t (> the current time) and writes y(t) [n]; throws IntegrationFailure.
  void advance_to(double t, double* y);
  /// Steps accepted so far, and failed (error test or Newton) step attempts.
  std::int64_t steps() const;
  std::int64_t failed_steps() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace bhpm::pde
