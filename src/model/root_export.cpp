#include "model/root_export.h"

#include <ATen/ATen.h>

#include "gp/linear_mean.h"
#include "gp/rbf_kernel.h"
#include "io/atomic_file.h"
#include "io/hdf5_tensor.h"
#include "model/root_data.h"
#include "pde/nonlinear_term.h"

namespace bhpm::model {

namespace {

constexpr std::int64_t kFormatVersion = 1;

std::string variable_names(int order) {
  std::string names;
  for (int m = 0; m <= order; ++m) names += (m ? "," : "") + pde::derivative_name(m);
  return names;
}

void write_root_inputs(const io::Hdf5Location& file, const BhpmModelImpl& model,
                       const LeafData& data) {
  const RootData root = root_data_detached(model.leaves(), data, model.order());
  const io::Hdf5Location group = file.create_group("root_inputs");
  const std::int64_t leaves = data.leaves(), points = data.points();
  const std::string variables = variable_names(model.order());
  io::write_tensor(group, "v", root.inputs.reshape({leaves, points, -1}),
                   {"experiment,point,variable", "per variable: " + variables,
                    "root inputs v from the leaves at the measurement points"});
  io::write_tensor(group, "u_t", root.targets.reshape({leaves, points}),
                   {"experiment,point", "u per time", "root targets u_t from the leaves"});
  io::write_tensor(group, "x", data.x, {"experiment,point", "length", "measurement positions"});
  io::write_tensor(group, "t", data.t, {"experiment,point", "time", "measurement times"});
}

void write_gp(const io::Hdf5Location& file, const gp::SparseVariationalGpImpl& root) {
  const io::Hdf5Location group = file.create_group("gp");
  const gp::MultivariateNormal q = root.inducing_distribution();
  io::write_tensor(group, "inducing_inputs", root.inducing_inputs(),
                   {"inducing,variable", "as root_inputs/v", "inducing inputs Z"});
  io::write_tensor(group, "q_mean", q.mean, {"inducing", "u per time", "mean of q(f(Z))"});
  io::write_tensor(group, "q_covariance", q.covariance,
                   {"inducing,inducing", "(u per time)^2", "covariance of q(f(Z))"});
  io::write_tensor(group, "whitened_mean", root.variational_mean(),
                   {"inducing", "1", "m of q(v) = N(m, L_S L_S^T), f(Z) = mu(Z) + L_zz v"});
  io::write_tensor(group, "whitened_cholesky", root.variational_cholesky(),
                   {"inducing,inducing", "1", "L_S of q(v)"});
  const auto& mean = dynamic_cast<const gp::LinearMeanImpl&>(*root.mean());
  const auto& kernel = dynamic_cast<const gp::RbfKernelImpl&>(*root.kernel());
  io::write_tensor(group, "mean_weight", mean.weight(),
                   {"variable", "u per time per variable", "w of the mean w . v + b"});
  io::write_tensor(group, "lengthscales", kernel.lengthscales(),
                   {"variable", "as root_inputs/v", "ARD lengthscales l_i"});
  group.set_attribute("mean_bias", mean.bias().item<double>());
  group.set_attribute("signal_variance", kernel.signal_variance().item<double>());
  group.set_attribute("noise_variance", root.likelihood()->variance().item<double>());
}

}  // namespace

void write_root_file(const std::string& path, const BhpmModelImpl& model, const LeafData& data,
                     const std::string& config) {
  at::NoGradGuard no_grad;
  io::AtomicFile output(path);
  {
    const io::Hdf5Location file = io::Hdf5Location::create_file(output.temporary_path());
    file.set_attribute("format", std::string("bhpm-root"));
    file.set_attribute("format_version", kFormatVersion);
    file.set_attribute("order", static_cast<std::int64_t>(model.order()));
    file.set_attribute("variables", variable_names(model.order()));
    file.set_attribute("config", config);
    write_root_inputs(file, model, data);
    write_gp(file, model.root());
    io::write_tensor(file.create_group("leaves"), "noise_scale", model.leaves().noise_scale(),
                     {"experiment", "u", "learned measurement noise sigma_i of each leaf"});
  }  // closes the file before the rename
  output.commit();
}

}  // namespace bhpm::model
