import Foundation
import PackagePlugin

/// Embeds the files of a target's `Resources` folders (a page's template, styles and
/// scripts) in a generated Swift source, `EmbeddedResources.swift`: one `String` constant
/// per file, internal to the target.
///
/// The files stay files of their own in the repository, edited and reviewed as HTML, CSS
/// and JavaScript; the binary that uses them needs no resource bundle beside it. The
/// target excludes its `Resources` folders in `Package.swift`, so that SwiftPM does not
/// take the files for sources; the build command names each file as an input, so that an
/// edited file regenerates the source.
@main struct EmbedResources: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let files = try resourceFiles(under: target.directoryURL)
    guard !files.isEmpty else { return [] }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) resources of \(target.name)",
        executable: try context.tool(named: "embed-resources").url,
        arguments: [output.path] + files.map(\.path),
        inputFiles: files, outputFiles: [output])
    ]
  }

  /// The regular files inside every folder named `Resources` below `directory`, sorted
  /// by path so that the generated source is the same on every machine.
  private func resourceFiles(under directory: URL) throws -> [URL] {
    let manager = FileManager.default
    guard
      let walker = manager.enumerator(
        at: directory, includingPropertiesForKeys: [.isRegularFileKey],
        options: [.skipsHiddenFiles])
    else { return [] }
    var files: [URL] = []
    for case let url as URL in walker where url.pathComponents.dropLast().last == "Resources" {
      if try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
        files.append(url)
      }
    }
    return files.sorted { $0.path < $1.path }
  }
}
