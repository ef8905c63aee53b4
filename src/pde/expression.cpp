#include "pde/expression.h"

#include <muParser.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace bhpm::pde {

Expression::Expression(const std::string& text, std::vector<std::string> variables,
                       std::string field, const std::map<std::string, double>& constants)
    : text_(text),
      variables_(std::move(variables)),
      field_(std::move(field)),
      parser_(std::make_unique<mu::Parser>()) {
  std::string names;
  for (const auto& v : variables_) names += (names.empty() ? "" : ", ") + v;
  try {
    parser_->DefineConst("pi", M_PI);
    parser_->DefineConst("e", M_E);
    for (const auto& [name, value] : constants) parser_->DefineConst(name, value);
    bind(1);
    parser_->SetExpr(text_);
    parser_->Eval();  // forces parsing now, so errors surface before any work
    for (const auto& [name, pointer] : parser_->GetUsedVar()) used_.push_back(name);
  } catch (const mu::Parser::exception_type& error) {
    throw ExpressionError(field_ + ": cannot parse expression '" + text_ + "': " + error.GetMsg() +
                          " (variables available: " + names + ")");
  }
}

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

void Expression::bind(std::size_t n) {
  buffers_.resize(variables_.size());
  for (std::size_t v = 0; v < variables_.size(); ++v) {
    buffers_[v].assign(n, 0.0);
    parser_->DefineVar(variables_[v], buffers_[v].data());
  }
}

void Expression::evaluate(const std::vector<const double*>& inputs, std::size_t n, double* out) {
  if (inputs.size() != variables_.size())
    throw std::invalid_argument(field_ + ": expression expects " +
                                std::to_string(variables_.size()) + " input arrays");
  if (n == 0) return;
  if (buffers_.empty() || buffers_.front().size() != n) bind(n);
  for (std::size_t v = 0; v < inputs.size(); ++v)
    std::memcpy(buffers_[v].data(), inputs[v], n * sizeof(double));
  try {
    parser_->Eval(out, static_cast<int>(n));
  } catch (const mu::Parser::exception_type& error) {
    throw ExpressionError(field_ + ": cannot evaluate expression '" + text_ +
                          "': " + error.GetMsg());
  }
}

bool Expression::uses(const std::string& variable) const {
  return std::find(used_.begin(), used_.end(), variable) != used_.end();
}

}  // namespace bhpm::pde
