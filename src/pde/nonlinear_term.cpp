#include "pde/nonlinear_term.h"

#include <ATen/ATen.h>

#include <stdexcept>

#include "pde/expression.h"

namespace bhpm::pde {

std::string derivative_name(int order) {
  return order == 0 ? "u" : "u_" + std::string(static_cast<std::size_t>(order), 'x');
}

void NonlinearTerm::evaluate_values(std::int64_t /*member*/, const double* /*derivatives*/,
                                    std::int64_t /*points*/, double /*t*/, double* /*out*/) const {
  throw std::logic_error("nonlinear term " + describe() + " evaluates tensors only");
}

at::Tensor AdvectionTerm::evaluate(const at::Tensor& derivatives) const {
  return -(derivatives[0] * derivatives[1]);
}

void AdvectionTerm::evaluate_values(std::int64_t /*member*/, const double* derivatives,
                                    std::int64_t points, double /*t*/, double* out) const {
  const double* u = derivatives;
  const double* u_x = derivatives + points;
  for (std::int64_t j = 0; j < points; ++j) out[j] = -(u[j] * u_x[j]);
}

ExpressionTerm::ExpressionTerm(const std::string& text, const std::string& field) {
  std::vector<std::string> names;
  for (int m = 0; m <= kMaxDerivative; ++m) names.push_back(derivative_name(m));
  auto full = std::make_unique<Expression>(text, names, field);
  for (int m = 0; m <= kMaxDerivative; ++m)
    if (full->uses(names[m])) max_derivative_ = m;
  names.resize(max_derivative_ + 1);
  expression_ = std::make_unique<Expression>(text, names, field);
}

ExpressionTerm::~ExpressionTerm() = default;

at::Tensor ExpressionTerm::evaluate(const at::Tensor& derivatives) const {
  at::Tensor inputs = derivatives.contiguous();
  const std::int64_t count = inputs[0].numel();
  std::vector<const double*> pointers;
  for (int m = 0; m <= max_derivative_; ++m)
    pointers.push_back(inputs.data_ptr<double>() + m * count);
  at::Tensor out = at::empty(inputs[0].sizes(), inputs.options());
  expression_->evaluate(pointers, static_cast<std::size_t>(count), out.data_ptr<double>());
  return out;
}

void ExpressionTerm::evaluate_values(std::int64_t /*member*/, const double* derivatives,
                                     std::int64_t points, double /*t*/, double* out) const {
  std::vector<const double*> rows;
  for (int m = 0; m <= max_derivative_; ++m) rows.push_back(derivatives + m * points);
  const std::lock_guard<std::mutex> lock(evaluating_);
  expression_->evaluate(rows, static_cast<std::size_t>(points), out);
}

std::string ExpressionTerm::describe() const { return expression_->text(); }

}  // namespace bhpm::pde
