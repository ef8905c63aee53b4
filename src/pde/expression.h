#pragma once
/// Pointwise arithmetic expressions read from configuration (muparser).
///
/// Used for initial conditions (`-sin(pi*x/8)`, variable x) and for the nonlinear part
/// of a general PDE (`-u*u_x`, variables u, u_x, u_xx, ...). Constants pi and e are
/// predefined, as are muparser's functions (sin, cos, exp, tanh, sqrt, abs, ...).

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mu {
class Parser;
}

namespace bhpm::pde {

/// An expression that failed to parse; the message names the field and the position.
class ExpressionError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class Expression {
 public:
  /// Compiles `text` over `variables`; `field` (e.g. "config.toml: equation.nonlinear")
  /// prefixes every error. Unknown variables and syntax errors throw ExpressionError.
  Expression(const std::string& text, std::vector<std::string> variables, std::string field,
             const std::map<std::string, double>& constants = {});
  ~Expression();
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;

  /// Evaluates at n points: inputs[v] holds n values of variables()[v]; writes n results.
  void evaluate(const std::vector<const double*>& inputs, std::size_t n, double* out);

  /// Whether the expression reads `variable` at all.
  bool uses(const std::string& variable) const;

  const std::string& text() const { return text_; }
  const std::vector<std::string>& variables() const { return variables_; }

 private:
  void bind(std::size_t n);

  std::string text_;
  std::vector<std::string> variables_;
  std::string field_;
  std::unique_ptr<mu::Parser> parser_;
  std::vector<std::vector<double>> buffers_;
  std::vector<std::string> used_;
};

}  // namespace bhpm::pde
