#include "model/root_export.h"

#include <ATen/ATen.h>

#include <filesystem>

#include "io/atomic_file.h"
#include "io/hdf5_tensor.h"
#include "model/root_data.h"

namespace bhpm::model {

namespace {

constexpr std::int64_t kFormatVersion = 1;

/// "u,u_x,u_xx" for K = 2.
std::string variable_names(int order) {
  std::string names;
  for (const std::string& name : root_variable_names(order + 1))
    names += (names.empty() ? "" : ",") + name;
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

/// A vector hyperparameter as a dataset with its attributes, a scalar one as an
/// attribute of `group` (mean_weight, lengthscales; mean_bias, signal_variance).
void write_hyperparameters(const io::Hdf5Location& group,
                           const std::vector<gp::Hyperparameter>& parameters) {
  for (const gp::Hyperparameter& p : parameters) {
    if (p.value.dim() == 0)
      group.set_attribute(p.name, p.value.item<double>());
    else
      io::write_tensor(group, p.name, p.value, {p.dims, p.units, p.description});
  }
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
  group.set_attribute("kernel", root.kernel()->name());
  write_hyperparameters(group, root.mean()->hyperparameters());
  write_hyperparameters(group, root.kernel()->hyperparameters());
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
    write_root_inputs(file, model, on_device(data, model.root().inducing_inputs().device()));
    write_gp(file, model.root());
    io::write_tensor(file.create_group("leaves"), "noise_scale", model.leaves().noise_scale(),
                     {"experiment", "u", "learned measurement noise sigma_i of each leaf"});
  }  // closes the file before the rename
  output.commit();
}

at::Tensor read_root_inputs(const std::string& path) {
  if (!std::filesystem::exists(path))
    throw io::Hdf5Error(path + ": missing (the root inputs; `bhpm train` writes it)");
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  const at::Tensor v = io::read_tensor(file, "root_inputs/v", 3);
  if (v.size(0) * v.size(1) == 0 || v.size(2) == 0)
    throw io::Hdf5Error(file.describe("root_inputs/v") +
                        ": must be [experiment, point, variable] with at least one row");
  if (!at::isfinite(v).all().item<bool>())
    throw io::Hdf5Error(file.describe("root_inputs/v") +
                        ": contains NaN or Inf (the file is damaged)");
  return v;
}

}  // namespace bhpm::model
