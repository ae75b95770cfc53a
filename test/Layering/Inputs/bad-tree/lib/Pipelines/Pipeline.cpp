// A pipeline may use a conversion (an allowed edge).
#include "SdpaDialect/Conversion/SdpaConversionPasses.h"
