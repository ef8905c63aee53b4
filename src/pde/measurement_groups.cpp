#include "pde/measurement_groups.h"

#include <algorithm>

#include "util/number_format.h"

namespace bhpm::pde {

io::Hdf5Location create_set(const io::Hdf5Location& file, const std::string& name,
                            std::size_t experiments) {
  const io::Hdf5Location set = file.create_group(name);
  set.set_attribute("experiments", static_cast<std::int64_t>(experiments));
  return set;
}

std::vector<io::Hdf5Location> experiment_groups(const io::Hdf5Location& file,
                                                const std::string& name) {
  const io::Hdf5Location set = file.open_group(name);
  const double count = set.number_attribute("experiments");
  if (!(count >= 1) || count != static_cast<double>(static_cast<std::int64_t>(count)))
    throw io::Hdf5Error(set.describe() + ": attribute 'experiments' must be a positive integer");
  std::vector<io::Hdf5Location> groups;
  for (std::int64_t e = 0; e < static_cast<std::int64_t>(count); ++e) {
    const std::string index = std::to_string(e);
    if (!set.has(index))
      throw io::Hdf5Error(set.describe(index) + ": missing (the set holds " +
                          util::format_significant(count, 10) + " experiments, numbered from 0)");
    groups.push_back(set.open_group(index));
  }
  return groups;
}

std::vector<std::pair<std::string, std::string>> free_attributes(
    const io::Hdf5Location& group, const std::vector<std::string>& reserved) {
  std::vector<std::pair<std::string, std::string>> attributes;
  for (const std::string& key : group.attribute_names()) {
    if (std::find(reserved.begin(), reserved.end(), key) != reserved.end()) continue;
    try {
      attributes.emplace_back(key, group.string_attribute(key));
    } catch (const io::Hdf5Error&) {
      attributes.emplace_back(key, util::format_significant(group.number_attribute(key), 17));
    }
  }
  return attributes;
}

}  // namespace bhpm::pde
