import { assert, describe, it } from "@effect/vitest"
import { languageResolver } from "./LanguageResolution.ts"

const resolverOver = (modules: ReadonlyArray<string>, packages: ReadonlyArray<{ name: string; directory: string }> = []) =>
  languageResolver({
    modules: new Set(modules),
    packages: packages.map((pkg) => ({ id: `package:${pkg.name}`, name: pkg.name, directory: pkg.directory, entryPoints: [] })),
    compilerOptions: []
  })

describe("languageResolver", () => {
  it("Python - relative imports climb one package a dot, and never above the root", () => {
    const resolve = resolverOver(["pkg/__init__.py", "pkg/a.py", "pkg/sub/b.py", "pkg/sub/c.py", "x.py"])
    assert.deepStrictEqual(resolve("pkg/sub/b.py", ".c"), ["module:pkg/sub/c.py"])
    assert.deepStrictEqual(resolve("pkg/sub/b.py", "..a"), ["module:pkg/a.py"])
    assert.deepStrictEqual(resolve("pkg/sub/b.py", ".."), ["module:pkg/__init__.py"])
    assert.deepStrictEqual(resolve("pkg/sub/b.py", "...x"), ["module:x.py"])
    assert.strictEqual(resolve("pkg/sub/b.py", "....x"), "unresolved:....x")
    // `from .missing import y` names no module: not the package's __init__.
    assert.strictEqual(resolve("pkg/a.py", ".missing"), "unresolved:.missing")
  })

  it("Python - a one-part absolute import is a file only under a directory above the importer; a dotted one by suffix", () => {
    const resolve = resolverOver(["tools/logging.py", "app/main.py", "app/config.py", "src/flask/app.py", "tests/test_app.py"])
    assert.strictEqual(resolve("app/main.py", "logging"), "external:logging")
    assert.deepStrictEqual(resolve("tools/run.py", "logging"), ["module:tools/logging.py"])
    assert.deepStrictEqual(resolve("tests/test_app.py", "flask.app"), ["module:src/flask/app.py"])
  })

  it("Rust - mod, crate, self and super name module files, the base module too; use lists name each member", () => {
    const resolve = resolverOver(["src/lib.rs", "src/a.rs", "src/a/b.rs", "src/c.rs", "tests/integration.rs", "tests/common/mod.rs", "src/bin/tool.rs", "src/bin/helper.rs"])
    assert.deepStrictEqual(resolve("src/a/b.rs", "super::Thing"), ["module:src/a.rs"])
    assert.deepStrictEqual(resolve("src/a/b.rs", "crate::Config"), ["module:src/lib.rs"])
    assert.deepStrictEqual(resolve("src/a.rs", "self::b::Item"), ["module:src/a/b.rs"])
    assert.deepStrictEqual(resolve("src/a.rs", "mod b"), ["module:src/a/b.rs"])
    assert.deepStrictEqual(resolve("tests/integration.rs", "mod common"), ["module:tests/common/mod.rs"])
    assert.deepStrictEqual(resolve("src/bin/tool.rs", "mod helper"), ["module:src/bin/helper.rs"])
    assert.deepStrictEqual(resolve("src/lib.rs", "crate::c::D"), ["module:src/c.rs"])
    assert.strictEqual(resolve("src/lib.rs", "serde::Serialize"), "external:serde::Serialize")
  })

  it("Java - a static import of a class's members names the class's file", () => {
    const resolve = resolverOver(["src/main/java/c/D.java", "src/main/java/c/E.java", "src/main/java/app/App.java"])
    assert.deepStrictEqual(resolve("src/main/java/app/App.java", "c.D.*"), ["module:src/main/java/c/D.java"])
    assert.deepStrictEqual(resolve("src/main/java/app/App.java", "c.*"), ["module:src/main/java/c/D.java", "module:src/main/java/c/E.java"])
    assert.deepStrictEqual(resolve("src/main/java/app/App.java", "c.D.method"), ["module:src/main/java/c/D.java"])
  })

  it("Go - an import under a module path names every non-test file of the package", () => {
    const resolve = resolverOver(["go/price/price.go", "go/price/tax.go", "go/price/price_test.go", "go/cart/cart.go"], [{ name: "example.com/shop", directory: "go" }])
    assert.deepStrictEqual(resolve("go/cart/cart.go", "example.com/shop/price"), ["module:go/price/price.go", "module:go/price/tax.go"])
    assert.strictEqual(resolve("go/cart/cart.go", "fmt"), "external:fmt")
  })

  it("answers only for files of the tree-sitter languages", () => {
    assert.isUndefined(resolverOver([])("src/a.ts", "./b.js"))
  })
})
