#include "pde/implicit_integrator.h"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace bhpm::pde {

struct ImplicitIntegrator::State {
  std::int64_t n = 0;
  RightHandSide f;
  Jacobian jacobian;
  std::int64_t max_steps = 0;
  SUNContext context = nullptr;
  N_Vector y = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver linear_solver = nullptr;
  void* memory = nullptr;
  double t = 0.0;
  std::string last_message;  ///< CVODE's last error message

  // CVODE's callbacks; user_data is this State.
  static int evaluate(realtype t, N_Vector y, N_Vector ydot, void* data) {
    auto* state = static_cast<State*>(data);
    return state->f(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  }
  static int evaluate_jacobian(realtype t, N_Vector y, N_Vector /*fy*/, SUNMatrix j, void* data,
                               N_Vector, N_Vector, N_Vector) {
    auto* state = static_cast<State*>(data);
    return state->jacobian(t, N_VGetArrayPointer(y), SUNDenseMatrix_Data(j));
  }
  static void record_error(int /*code*/, const char* module, const char* function, char* message,
                           void* data) {
    static_cast<State*>(data)->last_message =
        std::string(module) + "::" + function + ": " + message;
  }

  ~State() {
    if (memory) CVodeFree(&memory);
    if (linear_solver) SUNLinSolFree(linear_solver);
    if (matrix) SUNMatDestroy(matrix);
    if (y) N_VDestroy(y);
    if (context) SUNContext_Free(&context);
  }
};

ImplicitIntegrator::ImplicitIntegrator(std::int64_t n, double t0, const double* y0, RightHandSide f,
                                       Jacobian jacobian, const ImplicitIntegratorOptions& options)
    : state_(std::make_unique<State>()) {
  if (n < 1) throw std::invalid_argument("implicit integrator: needs n >= 1 unknowns");
  if (!(options.relative_tolerance > 0.0) || !(options.absolute_tolerance > 0.0))
    throw std::invalid_argument("implicit integrator: tolerances must be > 0");
  State& s = *state_;
  s.n = n;
  s.f = std::move(f);
  s.jacobian = std::move(jacobian);
  s.max_steps = options.max_steps;
  s.t = t0;
  if (SUNContext_Create(nullptr, &s.context) != 0)
    throw std::runtime_error("implicit integrator: SUNContext_Create failed");
  s.y = N_VNew_Serial(static_cast<sunindextype>(n), s.context);
  std::copy(y0, y0 + n, N_VGetArrayPointer(s.y));
  s.memory = CVodeCreate(CV_BDF, s.context);
  s.matrix = SUNDenseMatrix(static_cast<sunindextype>(n), static_cast<sunindextype>(n), s.context);
  s.linear_solver = SUNLinSol_Dense(s.y, s.matrix, s.context);
  if (!s.y || !s.memory || !s.matrix || !s.linear_solver)
    throw std::runtime_error("implicit integrator: SUNDIALS could not allocate its workspace");
  const bool configured =
      CVodeSetErrHandlerFn(s.memory, &State::record_error, &s) == CV_SUCCESS &&
      CVodeInit(s.memory, &State::evaluate, t0, s.y) == CV_SUCCESS &&
      CVodeSetUserData(s.memory, &s) == CV_SUCCESS &&
      CVodeSStolerances(s.memory, options.relative_tolerance, options.absolute_tolerance) ==
          CV_SUCCESS &&
      CVodeSetLinearSolver(s.memory, s.linear_solver, s.matrix) == CVLS_SUCCESS &&
      CVodeSetJacFn(s.memory, &State::evaluate_jacobian) == CVLS_SUCCESS &&
      CVodeSetMaxNumSteps(s.memory, static_cast<long>(options.max_steps)) == CV_SUCCESS;
  if (!configured)
    throw std::runtime_error("implicit integrator: CVODE refused its settings: " + s.last_message);
}

ImplicitIntegrator::~ImplicitIntegrator() = default;

void ImplicitIntegrator::advance_to(double t, double* y) {
  State& s = *state_;
  realtype reached = s.t;
  const int flag = CVode(s.memory, t, s.y, &reached, CV_NORMAL);
  s.t = reached;
  if (flag < 0)
    throw IntegrationFailure("CVODE stopped at t = " + std::to_string(reached) + " (" +
                                 CVodeGetReturnFlagName(flag) + "): " + s.last_message,
                             reached);
  std::copy(N_VGetArrayPointer(s.y), N_VGetArrayPointer(s.y) + s.n, y);
}

std::int64_t ImplicitIntegrator::steps() const {
  long steps = 0;
  CVodeGetNumSteps(state_->memory, &steps);
  return steps;
}

std::int64_t ImplicitIntegrator::failed_steps() const {
  long error_failures = 0, convergence_failures = 0;
  CVodeGetNumErrTestFails(state_->memory, &error_failures);
  CVodeGetNumNonlinSolvConvFails(state_->memory, &convergence_failures);
  return error_failures + convergence_failures;
}

}  // namespace bhpm::pde
