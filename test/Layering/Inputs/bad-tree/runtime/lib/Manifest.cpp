// The runtime may use the IR-free schema (an allowed edge).
#include "SdpaSchema/Manifest.h"
