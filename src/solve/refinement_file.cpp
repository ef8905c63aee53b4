#include "solve/refinement_file.h"

#include <ATen/ATen.h>

#include <cstdint>

#include "io/atomic_file.h"
#include "io/hdf5_tensor.h"

namespace bhpm::solve {

void write_refinement_study(const std::string& path, const RefinementStudy& study,
                            const RefinementStudyOptions& options, const std::string& config) {
  io::AtomicFile output(path);
  {
    const io::Hdf5Location file = io::Hdf5Location::create_file(output.temporary_path());
    file.set_attribute("format", std::string("bhpm-refinement-study"));
    file.set_attribute("format_version", static_cast<std::int64_t>(1));
    file.set_attribute("operator_prior",
                       std::string("GP(0.1 u_xx, 0.1^2 exp(-|v - v'|^2)) | f(0,0,0) = 0"));
    file.set_attribute("initial_condition", std::string("u0(x) = sin(x) on [-pi, pi], periodic"));
    file.set_attribute("new_points", options.refinement.new_points);
    file.set_attribute("seed", static_cast<std::int64_t>(options.refinement.seed));
    file.set_attribute("dt", options.dt);
    file.set_attribute("solver_tolerance", options.solver_tolerance);
    if (!config.empty()) file.set_attribute("config", config);
    io::write_tensor(file, "tolerances", at::tensor(study.tolerances, at::kDouble),
                     {"stage", "(u per time)^2", "delta_c of each stage"});
    io::write_tensor(file, "x", study.x, {"x", "length", "output grid"});
    io::write_tensor(file, "t", study.t, {"t", "time", "output times"});
    io::write_tensor(file, "u", study.solutions,
                     {"stage,sample,t,x", "u", "solution when the stage stopped"});
    io::write_tensor(file, "relative_rmse", study.relative_rmse,
                     {"stage,sample", "1", "|u_r - u_(r-1)| / |u_r|; NaN at stage 0"});
    io::write_tensor(
        file, "conditioning_points", study.conditioning_points,
        {"stage,sample", "1", "n_c when the stage stopped (V_c grows: the first n_c rows)"});
    io::write_tensor(file, "steps", study.steps,
                     {"stage", "1", "time steps of the stage's solves, all its rounds"});
    io::write_tensor(file, "rejected_steps", study.rejected_steps,
                     {"stage", "1", "of those, rejected by the adaptive step control"});
    io::write_tensor(file, "expected_variance", study.expected_variance,
                     {"stage,sample", "(u per time)^2", "last L_c of the stage"});
    const io::Hdf5Location inputs = file.create_group("conditioning_inputs");
    for (std::size_t s = 0; s < study.conditioning_inputs.size(); ++s)
      io::write_tensor(inputs, "sample_" + std::to_string(s), study.conditioning_inputs[s],
                       {"point,variable", "u, u_x, u_xx", "final V_c of the sample"});
  }
  output.commit();
}

}  // namespace bhpm::solve
