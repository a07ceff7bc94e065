import RewindArguments
import RewindCLI
import TestSupport

/// Runs `tool` (a `rewind` of test domains) in this process, without colour: its status,
/// and its standard output then standard error, with the paths of `directory`'s files
/// shortened to their names.
func runInProcess(
  _ tool: CommandLineTool<Context>, _ arguments: [String], shortening directory: TemporaryDirectory
) -> (status: Int32, output: String) {
  let context = Context.capture(environment: ["NO_COLOR": "1"])
  let status = tool.run(arguments: arguments, context: context)
  let output = (context.stdout.text + context.stderr.text)
    .replacing(directory.path + "/", with: "")
  return (status, output)
}
