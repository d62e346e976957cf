// Placeholder translation unit; replaced as the runtime lands.
namespace gfy { const char *version() { return "0.1.0"; } }
