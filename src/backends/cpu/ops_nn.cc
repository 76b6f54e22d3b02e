#include "backends/cpu/kernel.h"

namespace trinity {

void RegisterNnOps(KernelRegistry& r) { (void)r; }

}  // namespace trinity
