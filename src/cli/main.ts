export {}; console.log("hi")
