# Seed 000 (Torch 中显存回收节省显存的方法): snippets, indentation restored.
output = model(input).detach()

with torch.no_grad():
    output = model(input)

del variable
torch.cuda.empty_cache()

model = model.half()  # convert model to float16
input = input.half()  # convert input to float16

outputs = []
for batch in dataloader:
    with torch.no_grad():
        output = model(batch)
    outputs.append(output.cpu())  # move output to CPU memory

model = model.cpu()
data = data.cpu()

# your code here
output = model(input)
output = output.cpu()  # move output to CPU

del output  # delete the variable
torch.cuda.empty_cache()  # clear the cache
