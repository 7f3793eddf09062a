// The output folder of a run (--out): it holds one run's consistent set of outputs, never a mix of two runs'.
//
// Contract: open() creates --out when needed and a fresh staging folder inside it (.broadcheck-partial-XXXXXX);
// the run writes every output there (path(name)). commit() moves each file of the staging folder into --out
// (one rename each), removes from --out every output name in kOutputFiles that this run did not write (so an
// earlier run's summary.json cannot sit next to this run's results.jsonl), and removes the staging folder. A run
// killed before commit() leaves --out as the previous run left it, and what it wrote in its staging folder.
// Failures are returned as text naming the path, never thrown: an unwritable --out is the user's input (exit 2).
#pragma once

#include <string>
#include <vector>

namespace bc {

// Every file a run may write into --out.
const std::vector<std::string>& output_file_names();

class OutputFolder {
 public:
  OutputFolder() = default;
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  ~OutputFolder();  // removes a staging folder that was never committed only when it is empty

  // "" when `out` and its staging folder are ready, else why not ("DIR: cannot create the output folder: ...").
  std::string open(const std::string& out);
  std::string path(const std::string& name) const;  // the file `name` in the staging folder
  const std::string& staging() const { return staging_; }
  // "" when the outputs are in place, else the reason (the staging folder is then left as it is).
  std::string commit();

 private:
  std::string out_, staging_;
};

}  // namespace bc
