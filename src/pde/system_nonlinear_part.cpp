#include "pde/system_nonlinear_part.h"

#include <algorithm>

namespace bhpm::pde {

SystemNonlinearPart::SystemNonlinearPart(const PeriodicBox& box, const FieldSystem& system)
    : box_(box),
      fields_(system.size()),
      fft_(box.shape()),
      scratch_(static_cast<std::size_t>(box.modes())),
      result_(static_cast<std::size_t>(box.points())),
      keep_(static_cast<std::size_t>(box.modes())) {
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
  values_.assign(partials_.size(), FftReals(static_cast<std::size_t>(box.points())));
  for (const Partial& p : partials_) {
    FftSpectrum symbol(static_cast<std::size_t>(box.modes()));
    for (std::int64_t m = 0; m < box.modes(); ++m)
      symbol[m] = box.partial_symbol(m, p.x_order, p.y_order);
    symbols_.push_back(std::move(symbol));
  }
  for (std::int64_t m = 0; m < box.modes(); ++m) keep_[m] = box.below_two_thirds(m) ? 1.0 : 0.0;
}

bool SystemNonlinearPart::empty() const {
  return std::none_of(expressions_.begin(), expressions_.end(),
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
  for (std::int64_t i = 0; i < fields_; ++i) {
    if (!expressions_[i]) continue;
    std::vector<const double*> inputs;
    for (std::size_t p : inputs_[i]) inputs.push_back(values_[p].data());
    expressions_[i]->evaluate(inputs, points, result_.data());
    std::complex<double>* out = nv.data() + i * modes;
    fft_.forward(result_.data(), out);
    for (std::int64_t m = 0; m < modes; ++m) out[m] *= keep_[m];
  }
}

}  // namespace bhpm::pde
