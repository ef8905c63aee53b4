#pragma once
/// Drawing figures of the report: each figure is a gnuplot script data/<stem>.gp plus its
/// data files data/<stem>*.{dat,bin}, run in the report folder to make <stem>.png.
/// Scripts use paths relative to the report folder, so `cd report && gnuplot
/// data/<stem>.gp` redraws a figure after its commands are edited.

#include <set>
#include <string>

namespace bhpm::report {

/// A figure of the report: its PNG (relative to the report folder), a title and a caption
/// that says what to look for.
struct Figure {
  std::string file;
  std::string title;
  std::string caption;
};

/// PNG size in pixels.
struct FigureSize {
  int width = 1200;
  int height = 800;
};

class FigureWriter {
 public:
  /// Draws into `folder` (it must exist) with the gnuplot program `gnuplot`; creates
  /// folder/data for the scripts and data files.
  FigureWriter(std::string folder, std::string gnuplot);

  /// Where to write the data file `name` (folder/data/name).
  std::string data_file(const std::string& name) const;
  /// `name` as the scripts refer to it: the gnuplot string 'data/name'.
  static std::string data_reference(const std::string& name);

  /// Writes data/<stem>.gp (pngcairo terminal of `size`, output <stem>.png, then
  /// `commands`), runs gnuplot and returns "<stem>.png". Throws std::logic_error when
  /// `stem` was drawn before (two inputs mapped to one figure name) and
  /// std::runtime_error when gnuplot fails or leaves no PNG.
  std::string draw(const std::string& stem, FigureSize size, const std::string& commands);

 private:
  std::string folder_;
  std::string gnuplot_;
  std::set<std::string> drawn_;
};

}  // namespace bhpm::report
