#include "pde/system_nonlinear_part.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace bhpm::pde {

namespace {

/// The symbols of `partials` at every spectrum entry of `box`: [partials][modes].
std::vector<FftSpectrum> partial_symbols(const PeriodicBox& box,
                                         const std::vector<Partial>& partials) {
  std::vector<FftSpectrum> symbols;
  for (const Partial& p : partials) {
    FftSpectrum symbol(static_cast<std::size_t>(box.modes()));
    for (std::int64_t m = 0; m < box.modes(); ++m)
      symbol[m] = box.partial_symbol(m, p.x_order, p.y_order);
    symbols.push_back(std::move(symbol));
  }
  return symbols;
}

}  // namespace

SystemNonlinearPart::SystemNonlinearPart(const PeriodicBox& box, const FieldSystem& system,
                                         const PointwiseNonlinearity* given)
    : box_(box),
      fields_(system.size()),
      fft_(box.shape()),
      given_(given),
      scratch_(static_cast<std::size_t>(box.modes())),
      result_(static_cast<std::size_t>(box.points())),
      keep_(static_cast<std::size_t>(box.modes())) {
  for (std::int64_t m = 0; m < box.modes(); ++m) keep_[m] = box.below_two_thirds(m) ? 1.0 : 0.0;
  if (given_) {
    for (std::int64_t i = 0; i < fields_; ++i)
      if (!system.equations[i].nonlinear.empty())
        throw std::invalid_argument("system '" + system.name +
                                    "': a nonlinear part given as code replaces " +
                                    system.fields[i] + "_t's expression; it must have none");
    partials_ = given_->partials;
    expressions_.resize(static_cast<std::size_t>(fields_));
    given_results_.assign(static_cast<std::size_t>(fields_),
                          FftReals(static_cast<std::size_t>(box.points())));
  } else {
    compile_expressions(system);
  }
  values_.assign(partials_.size(), FftReals(static_cast<std::size_t>(box.points())));
  symbols_ = partial_symbols(box, partials_);
}

void SystemNonlinearPart::compile_expressions(const FieldSystem& system) {
  std::vector<std::string> all_names;
  for (const Partial& p : system.expression_partials()) all_names.push_back(system.name_of(p));
  for (std::int64_t i = 0; i < fields_; ++i) {
    const std::string& text = system.equations[i].nonlinear;
    if (text.empty()) {
      expressions_.emplace_back();
      inputs_.emplace_back();
      continue;
    }
    const std::string where = "system: " + system.fields[i] + "_t's nonlinear part";
    const Expression everything(text, all_names, where);
    std::vector<std::string> names;
    std::vector<std::size_t> inputs;
    for (const Partial& p : system.expression_partials()) {
      const std::string name = system.name_of(p);
      if (!everything.uses(name)) continue;
      names.push_back(name);
      const auto same = [&](const Partial& q) { return system.name_of(q) == name; };
      auto found = std::find_if(partials_.begin(), partials_.end(), same);
      if (found == partials_.end()) found = partials_.insert(partials_.end(), p);
      inputs.push_back(static_cast<std::size_t>(found - partials_.begin()));
    }
    expressions_.emplace_back(Expression(text, names, where));
    inputs_.push_back(std::move(inputs));
  }
}

bool SystemNonlinearPart::empty() const {
  return !given_ && std::none_of(expressions_.begin(), expressions_.end(),
                                 [](const auto& e) { return e.has_value(); });
}

void SystemNonlinearPart::evaluate(const FftSpectrum& v, FftSpectrum& nv) {
  const std::int64_t modes = box_.modes();
  const std::size_t points = static_cast<std::size_t>(box_.points());
  std::fill(nv.begin(), nv.end(), 0.0);
  for (std::size_t p = 0; p < partials_.size(); ++p) {
    const std::complex<double>* field = v.data() + partials_[p].field * modes;
    const std::complex<double>* symbol = symbols_[p].data();
    for (std::int64_t m = 0; m < modes; ++m) scratch_[m] = field[m] * symbol[m];
    fft_.backward(scratch_.data(), values_[p].data());
  }
  if (given_) {
    std::vector<const double*> inputs;
    for (const FftReals& values : values_) inputs.push_back(values.data());
    std::vector<double*> outputs;
    for (FftReals& result : given_results_) outputs.push_back(result.data());
    given_->evaluate(inputs, static_cast<std::int64_t>(points), outputs);
    for (std::int64_t i = 0; i < fields_; ++i) transform_kept(given_results_[i], nv, i);
    return;
  }
  for (std::int64_t i = 0; i < fields_; ++i) {
    if (!expressions_[i]) continue;
    std::vector<const double*> inputs;
    for (std::size_t p : inputs_[i]) inputs.push_back(values_[p].data());
    expressions_[i]->evaluate(inputs, points, result_.data());
    transform_kept(result_, nv, i);
  }
}

void SystemNonlinearPart::transform_kept(const FftReals& values, FftSpectrum& nv,
                                         std::int64_t field) {
  const std::int64_t modes = box_.modes();
  std::complex<double>* out = nv.data() + field * modes;
  fft_.forward(values.data(), out);
  for (std::int64_t m = 0; m < modes; ++m) out[m] *= keep_[m];
}

}  // namespace bhpm::pde
